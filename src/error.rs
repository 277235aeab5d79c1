//! The one error type of the core. Every fallible call returns it, and a call that returns it
//! has changed nothing.

use core::ffi::CStr;
use core::fmt;

/// Why a call was rejected. The state is exactly as it was before the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A number was NaN or infinite.
    NotFinite,
    /// A number that must be positive was zero or negative (slot-time, weight, slots, capacity),
    /// or a demand vector was all zeros.
    NotPositive,
    /// No entry (job, user) with that id.
    UnknownId,
    /// An entry (job, user) with that id is already present.
    DuplicateId,
    /// The time given is earlier than the time of the last accepted call.
    TimeWentBackwards,
    /// A capacity fixed in advance is full: no room for another job, user or executor, or more
    /// resource kinds or time steps than a vector holds.
    CapacityFull,
    /// The capacity asked for is too large to address.
    CapacityTooLarge,
    /// A number is finite but outside the range the algorithm supports (documented per call),
    /// chosen so that no derived value can overflow.
    OutOfRange,
    /// The job has already completed in the real system (or, for
    /// [`crate::cfq::Cfq::reprofile`], in the GPS reference).
    JobCompleted,
    /// Two parallel arrays (or storage parts) have different lengths.
    LengthMismatch,
    /// A number that must not be negative was negative (an amount, a demand, a coefficient).
    Negative,
    /// A list that must hold at least one element was empty.
    Empty,
    /// A sequence that must not decrease (a progress curve) decreased.
    NotMonotone,
    /// The samples given cannot determine the model to fit.
    Underdetermined,
    /// A demand does not fit what a machine has available at some step: placing (or
    /// reprovisioning) it would commit more of a resource than the machine has.
    DoesNotFit,
}

/// Result with the core's [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

impl Error {
    /// Every error, in the order of their C status codes.
    pub const ALL: [Error; 15] = [
        Error::NotFinite,
        Error::NotPositive,
        Error::UnknownId,
        Error::DuplicateId,
        Error::TimeWentBackwards,
        Error::CapacityFull,
        Error::CapacityTooLarge,
        Error::OutOfRange,
        Error::JobCompleted,
        Error::LengthMismatch,
        Error::Negative,
        Error::Empty,
        Error::NotMonotone,
        Error::Underdetermined,
        Error::DoesNotFit,
    ];

    /// A short, stable, human-readable explanation (NUL-terminated, so the C ABI shares it).
    pub const fn message(self) -> &'static CStr {
        match self {
            Error::NotFinite => c"a number was NaN or infinite",
            Error::NotPositive => c"a number that must be positive was zero or negative (or a demand was all zeros)",
            Error::UnknownId => c"no entry (job, user) with that id",
            Error::DuplicateId => c"an entry (job, user) with that id is already present",
            Error::TimeWentBackwards => c"time is earlier than the last accepted call",
            Error::CapacityFull => c"a fixed capacity is full (of jobs, users, executors, resource kinds or time steps)",
            Error::CapacityTooLarge => c"capacity is too large to address",
            Error::OutOfRange => c"a number is outside the supported range",
            Error::JobCompleted => c"the job has already completed",
            Error::LengthMismatch => c"parallel arrays have different lengths",
            Error::Negative => c"a number that must not be negative was negative",
            Error::Empty => c"a list that must not be empty was empty",
            Error::NotMonotone => c"a sequence that must not decrease decreased",
            Error::Underdetermined => c"the samples cannot determine the model",
            Error::DoesNotFit => c"the demand does not fit what the machine has available",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().to_str().unwrap_or_default())
    }
}

impl core::error::Error for Error {}
