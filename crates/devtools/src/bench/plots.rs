//! The curves the app's benchmarks draw with `--plots <DIR>`: sends per second over a run, the
//! budget beside them.

use std::path::Path;

use benchplot::{Axis, Chart, Corner, Series};

/// Writes `DIR/<file>`: for each named run, the successful sends arriving at the simulator in each
/// second since that run's first, over the budget as a flat line when there is one.
pub fn sends_per_second(
    folder: &Path,
    file: &str,
    title: &str,
    runs: &[(String, Vec<i64>)],
    budget_per_s: Option<u32>,
) -> anyhow::Result<()> {
    let mut series: Vec<Series> = runs
        .iter()
        .map(|(name, arrivals_ms)| Series::new(name, benchplot::per_second(arrivals_ms)))
        .collect();
    let longest = series
        .iter()
        .filter_map(|s| s.points.last().map(|p| p.0))
        .fold(0.0, f64::max);
    if let Some(budget) = budget_per_s {
        let budget = f64::from(budget);
        // First, so that the runs' curves are drawn over it and the legend names it first.
        series.insert(
            0,
            Series::new(
                format!("budget {budget}/s"),
                vec![(0.0, budget), (longest, budget)],
            ),
        );
    }
    Chart {
        title,
        x: Axis::linear("seconds since the first send"),
        y: Axis::linear("messages sent in that second"),
        series,
        legend: Corner::LowerLeft,
    }
    .write(&folder.join(file))?;
    Ok(())
}
