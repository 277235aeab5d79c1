//! The virtual clock of the GPS reference system (the CFQ paper's §IV-C, with weights as the
//! `cfq` module documents them).
//!
//! Virtual time V grows at `slots / W` per unit of real time, W being the total weight of the
//! jobs active in GPS; with no active job it stands still. Instead of adding an increment at
//! every event, V is kept as an *anchor* (a real time and the virtual time at that moment) and
//! evaluated from it, so rounding errors do not pile up between changes of W or of the slot
//! count; every GPS departure re-anchors V exactly on the departing job's virtual finish time.
//! W is an exact integer sum of integer weights, so jobs coming and going never leave a
//! residue in it (the drift that gave peers divisions by zero).

/// Real and virtual time of the GPS reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VirtualClock {
    /// Time of the last accepted call.
    pub now: f64,
    anchor_time: f64,
    anchor_virtual: f64,
    total_weight: u64,
    slots: u32,
}

impl VirtualClock {
    /// A clock at `start` with V = 0, no active job and `slots` slots.
    pub const fn new(slots: u32, start: f64) -> Self {
        VirtualClock {
            now: start,
            anchor_time: start,
            anchor_virtual: 0.0,
            total_weight: 0,
            slots,
        }
    }

    /// The number of slots shared in GPS.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Virtual time at real time `t` (not before the anchor), assuming W does not change in
    /// between, and never beyond `ceiling` (the smallest active virtual finish: rounding must
    /// not carry V past a departure that has not been processed).
    pub fn virtual_at(&self, t: f64, ceiling: Option<f64>) -> f64 {
        let v = if self.total_weight == 0 {
            self.anchor_virtual
        } else {
            self.anchor_virtual
                + (t - self.anchor_time) * f64::from(self.slots) / self.total_weight as f64
        };
        ceiling.map_or(v, |c| v.min(c))
    }

    /// Real time at which V reaches `virtual_finish` (not before the anchor) if W stays.
    pub fn time_of(&self, virtual_finish: f64) -> f64 {
        let t = self.anchor_time
            + (virtual_finish - self.anchor_virtual) * self.total_weight as f64
                / f64::from(self.slots);
        t.max(self.anchor_time)
    }

    /// Re-anchors at `t`, before W or the slot count changes.
    pub fn reanchor(&mut self, t: f64, ceiling: Option<f64>) {
        self.anchor_virtual = self.virtual_at(t, ceiling);
        self.anchor_time = t;
    }

    /// Re-anchors on a departure: V is exactly `virtual_finish` at real time `t`.
    pub fn depart_at(&mut self, virtual_finish: f64, t: f64) {
        self.anchor_virtual = virtual_finish;
        self.anchor_time = t;
    }

    /// Adds an arriving job's weight (call after re-anchoring).
    pub fn add_weight(&mut self, weight: u32) {
        self.total_weight = self.total_weight.saturating_add(u64::from(weight));
    }

    /// Removes a departing job's weight (call after re-anchoring).
    pub fn remove_weight(&mut self, weight: u32) {
        self.total_weight = self.total_weight.saturating_sub(u64::from(weight));
    }

    /// Changes the slot count (call after re-anchoring).
    pub fn set_slots(&mut self, slots: u32) {
        self.slots = slots;
    }
}
