//! SVG line charts of the benchmarks' curves (lateness over a drain, cost by backlog, sends per
//! second), so that docs/benchmarks.md can show a curve beside its table. SVG only, through
//! plotters: no font files, no network.

use std::path::Path;

use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// What can go wrong drawing or writing a chart.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// plotters could not draw the chart.
    #[error("drawing the chart {title:?}: {message}")]
    Draw {
        /// The chart's title.
        title: String,
        /// plotters' message.
        message: String,
    },
    /// The SVG file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// One axis: its label and whether it is logarithmic.
#[derive(Clone, Debug)]
pub struct Axis<'a> {
    /// What the axis measures, with its unit.
    pub label: &'a str,
    /// Logarithmic (for sizes spanning decades) rather than linear.
    pub log: bool,
}

impl<'a> Axis<'a> {
    /// A linear axis.
    pub fn linear(label: &'a str) -> Self {
        Self { label, log: false }
    }

    /// A logarithmic axis (every value must be above 0).
    pub fn log(label: &'a str) -> Self {
        Self { label, log: true }
    }
}

/// One named curve: its points, in the order they are joined.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend's name of the curve.
    pub name: String,
    /// The points, (x, y).
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A curve named `name` through `points`.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self {
            name: name.into(),
            points,
        }
    }
}

/// A line chart of one or more curves.
#[derive(Clone, Debug)]
pub struct Chart<'a> {
    /// The chart's title.
    pub title: &'a str,
    /// The horizontal axis.
    pub x: Axis<'a>,
    /// The vertical axis.
    pub y: Axis<'a>,
    /// The curves.
    pub series: Vec<Series>,
    /// Where the legend goes: a corner the curves leave empty.
    pub legend: Corner,
}

/// A corner of the plotting area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    UpperLeft,
    /// Bottom left.
    LowerLeft,
    /// Bottom right.
    LowerRight,
}

impl From<Corner> for SeriesLabelPosition {
    fn from(corner: Corner) -> Self {
        match corner {
            Corner::UpperLeft => Self::UpperLeft,
            Corner::LowerLeft => Self::LowerLeft,
            Corner::LowerRight => Self::LowerRight,
        }
    }
}

/// The chart's size in pixels.
const SIZE: (u32, u32) = (800, 450);
/// Colours of the curves, in order (repeated past the last).
const PALETTE: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
];

impl Chart<'_> {
    /// The chart as an SVG document.
    pub fn svg(&self) -> Result<String, PlotError> {
        let mut svg = String::new();
        self.draw(&mut svg).map_err(|message| PlotError::Draw {
            title: self.title.to_owned(),
            message,
        })?;
        Ok(svg)
    }

    /// Writes the chart to `path` as SVG, creating its folder.
    pub fn write(&self, path: &Path) -> Result<(), PlotError> {
        let svg = self.svg()?;
        let write_error = |source| PlotError::Write {
            path: path.display().to_string(),
            source,
        };
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(write_error)?;
        }
        std::fs::write(path, svg).map_err(write_error)
    }

    fn draw(&self, svg: &mut String) -> Result<(), String> {
        let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (x_range, y_range) = (self.range(|p| p.0, &self.x), self.range(|p| p.1, &self.y));
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70);
        match (self.x.log, self.y.log) {
            (false, false) => self.plot(builder.build_cartesian_2d(x_range, y_range)),
            (true, false) => self.plot(builder.build_cartesian_2d(x_range.log_scale(), y_range)),
            (false, true) => self.plot(builder.build_cartesian_2d(x_range, y_range.log_scale())),
            (true, true) => {
                self.plot(builder.build_cartesian_2d(x_range.log_scale(), y_range.log_scale()))
            }
        }?;
        root.present().map_err(|e| e.to_string())
    }

    /// Draws the mesh, the curves and the legend on a built chart of any coordinate kind.
    fn plot<'b, X, Y, E>(
        &self,
        built: Result<ChartContext<'b, SVGBackend<'b>, Cartesian2d<X, Y>>, E>,
    ) -> Result<(), String>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
        E: std::fmt::Display,
    {
        let mut chart = built.map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc(self.x.label)
            .y_desc(self.y.label)
            .draw()
            .map_err(|e| e.to_string())?;
        for (series, colour) in self.series.iter().zip(PALETTE.iter().cycle()) {
            let style = colour.stroke_width(2);
            chart
                .draw_series(LineSeries::new(series.points.iter().copied(), style))
                .map_err(|e| e.to_string())?
                .label(series.name.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style));
        }
        if self.series.len() > 1 {
            chart
                .configure_series_labels()
                .position(self.legend.into())
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The span of one coordinate over every curve, from 0 on a linear axis (from the smallest
    /// value on a log one), with a little room above.
    fn range(
        &self,
        coordinate: impl Fn(&(f64, f64)) -> f64,
        axis: &Axis<'_>,
    ) -> std::ops::Range<f64> {
        let values = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(&coordinate));
        let (low, high) = values
            .filter(|v| v.is_finite() && (!axis.log || *v > 0.0))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        if !low.is_finite() {
            return if axis.log { 1.0..10.0 } else { 0.0..1.0 };
        }
        if axis.log {
            (low / 1.5)..(high * 1.5)
        } else {
            let low = low.min(0.0);
            let high = if high > low { high } else { low + 1.0 };
            low..(high + (high - low) * 0.05)
        }
    }
}

/// Arrivals (milliseconds, any origin) counted per second since the first: (second, arrivals in
/// it), every second up to the last arrival's, empty ones included.
pub fn per_second(arrivals_ms: &[i64]) -> Vec<(f64, f64)> {
    let Some(first) = arrivals_ms.iter().min() else {
        return Vec::new();
    };
    let last = arrivals_ms.iter().max().copied().unwrap_or(*first);
    let seconds = usize::try_from((last - first) / 1000).unwrap_or(0) + 1;
    let mut counts = vec![0u32; seconds];
    for at in arrivals_ms {
        let second = usize::try_from((at - first) / 1000).unwrap_or(0);
        counts[second.min(seconds - 1)] += 1;
    }
    counts
        .into_iter()
        .enumerate()
        .map(|(second, count)| (second as f64, f64::from(count)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrivals_are_counted_per_second_with_empty_seconds_kept() {
        let counted = per_second(&[5_000, 5_100, 5_999, 8_000]);
        assert_eq!(
            counted,
            vec![(0.0, 3.0), (1.0, 0.0), (2.0, 0.0), (3.0, 1.0)]
        );
        assert!(per_second(&[]).is_empty());
    }

    #[test]
    fn a_chart_names_its_title_axes_and_curves_in_the_svg() {
        let chart = Chart {
            title: "Claim p99 by backlog",
            x: Axis::log("pending jobs"),
            y: Axis::linear("ms"),
            series: vec![
                Series::new("claim p99", vec![(1e4, 1.0), (1e5, 1.2), (1e6, 2.0)]),
                Series::new("drain", vec![(1e4, 3.0), (1e5, 2.5), (1e6, 2.0)]),
            ],
            legend: Corner::UpperLeft,
        };
        let svg = chart.svg().unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        for text in [
            "Claim p99 by backlog",
            "pending jobs",
            "ms",
            "claim p99",
            "drain",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        for colour in ["#1F77B4", "#D62728"] {
            let drawn = svg.matches(&format!("stroke=\"{colour}\"")).count();
            assert_eq!(drawn, 2, "{colour}: its curve and its legend mark");
        }
    }
}
