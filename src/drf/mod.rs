//! DRF: weighted Dominant Resource Fairness (Ghodsi et al.: *Dominant Resource Fairness: Fair
//! Allocation of Multiple Resource Types*, USENIX NSDI 2011), as the QKnobler paper models it
//! (Tang, Yu, Li: *Fairness-Efficiency Scheduling for Cloud Computing with Soft Fairness
//! Guarantees*, IEEE Transactions on Cloud Computing, 2020; §5.1).
//!
//! Users share a capacity of several resource kinds; each user's tasks need a demand vector,
//! and a user's *dominant share* is the largest share of any kind its tasks hold. DRF
//! equalizes dominant shares divided by weights.
//!
//! - [`Divisible`]: the closed form with divisible tasks (eq. 8-11): `φ`, `N_i^max`, `s_i^max`.
//! - [`DrfQueue`]: the incremental form for allocators: users ordered by weighted dominant
//!   share as tasks start and finish, O(log n) a change, and discrete DRF (progressive filling
//!   of whole tasks with finite pending counts, §6.1 C1) as one call a round.
//!
//! ```
//! use fairsched::drf::{Divisible, DrfQueue, Inline, Users};
//!
//! // The QKnobler paper's Example 1: 200 CPUs and 1000 GB, A <1, 6>, B <1, 2>.
//! let capacity = [200.0, 1000.0];
//! let users = Users::new(&capacity, &[1.0, 1.0], &[1.0, 6.0, 1.0, 2.0])?;
//! let drf = Divisible::of(&users);
//! assert!((drf.tasks(&users, 0) - 1000.0 / 11.0).abs() < 1e-9);
//!
//! let mut queue = DrfQueue::<Inline<8>>::new(&capacity)?;
//! queue.add_user(0, 1.0, &[1.0, 6.0])?;
//! queue.add_user(1, 1.0, &[1.0, 2.0])?;
//! queue.set_pending(0, 1000)?;
//! queue.set_pending(1, 1000)?;
//! let mut started = [0u64; 256];
//! let n = queue.allocate_round(&capacity, &mut started)?;
//! assert_eq!(n, 200); // 91 tasks of A and 109 of B
//! assert_eq!(queue.user(0)?.running, 91);
//! assert_eq!(queue.next(), Some(1)); // B's dominant share, 0.545, is the lower
//! # Ok::<(), fairsched::Error>(())
//! ```

mod divisible;
mod queue;
mod users;

pub use divisible::Divisible;
pub(crate) use queue::Pending;
pub use queue::{
    amounts, check_config, Borrowed, DrfQueue, Inline, QueueStats, UserInfo, UserRow, HEAPS,
};
pub(crate) use users::{checked_weight, Member, Population};
pub use users::{Users, SCALE};
