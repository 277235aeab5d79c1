//! DRF: weighted Dominant Resource Fairness (Ghodsi et al.), as the QKnobler paper models it
//! (Tang, Yu, Li; `papers/003`, §5.1; SPEC.md § DRF).
//!
//! Users share a capacity of several resource kinds; each user's tasks need a demand vector,
//! and a user's *dominant share* is the largest share of any kind its tasks hold. DRF
//! equalizes dominant shares divided by weights.
//!
//! - [`Divisible`]: the closed form with divisible tasks (eq. 8-11): `φ`, `N_i^max`, `s_i^max`.
//! - [`DrfQueue`]: the incremental form for allocators: users ordered by weighted dominant
//!   share as tasks start and finish, O(log n) a change, and discrete DRF (progressive filling
//!   of whole tasks with finite pending counts, §6.1 C1) as one call a round.

mod divisible;
mod queue;
mod users;

pub use divisible::Divisible;
pub use queue::{check_config, Borrowed, DrfQueue, Inline, UserInfo, UserRow, HEAPS};
pub use users::Users;
