//! A measurement repeated `--runs` times: one line per run, then, with several runs, a `summary`
//! line of the runs' medians, as every benchmark of the app prints them.

/// The runs of one measurement, for taking the median of each figure.
pub struct Runs<'a, T>(&'a [T]);

impl<T> Runs<'_, T> {
    /// The median over the runs of the figure `figure` reads.
    pub fn median(&self, figure: impl Fn(&T) -> f64) -> f64 {
        devdb::stats::median(&mut self.0.iter().map(figure).collect::<Vec<_>>())
    }
}

/// Runs `once` `runs` times (at least once), printing `line(result, "run")` after each, and with
/// more than one run `line(summary, "summary")`, where `summarize` makes the summary of the runs'
/// medians. Returns every run's result, in order.
pub async fn repeated<T>(
    runs: usize,
    mut once: impl AsyncFnMut() -> anyhow::Result<T>,
    line: impl Fn(&T, &str) -> String,
    summarize: impl FnOnce(Runs<'_, T>) -> T,
) -> anyhow::Result<Vec<T>> {
    let mut results = Vec::new();
    for _ in 0..runs.max(1) {
        let result = once().await?;
        println!("{}", line(&result, "run"));
        results.push(result);
    }
    if results.len() > 1 {
        println!("{}", line(&summarize(Runs(&results)), "summary"));
    }
    Ok(results)
}
