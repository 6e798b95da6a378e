//! Student's t quantiles, for the 95% confidence intervals of batch means.

/// Two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
pub fn student_t_975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        // Cornish-Fisher expansion around the normal quantile; error < 1e-3 beyond 30 dof.
        _ => {
            let z = 1.959_964;
            let d = df as f64;
            z + (z * z * z + z) / (4.0 * d) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * d * d)
        }
    }
}
