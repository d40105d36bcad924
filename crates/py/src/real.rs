//! The number types observations are written in.

/// A number the observations are written in (NumPy's float32 or float64).
pub trait Real: Copy + Send + Sync + 'static {
    /// `x` in this type (rounded to nearest for `f32`).
    fn of(x: f64) -> Self;
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
}

impl Real for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
}
