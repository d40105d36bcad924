//! Reproduces Table 1 and Figure 4 of "Unbounding discrete oriented polytopes" (Section 5).
//!
//! `cargo run --release -p cspace-udop-table -- [--scenes N]
//! [--points P] [--k-max K] [--svg FILE]` prints one markdown row per k (from 3 to K, default 300) with the
//! means over N random scenes (default 50) of P points each (default 40) of the 2D k-UDOP's perimeter, area, number of sides
//! and sides/k, then writes the convergence plot of Figure 4 (the area of the symmetric
//! difference of the polygons for k and k + 1, per scene and mean) to FILE.
//!
//! `cargo run --release -p cspace-udop-table -- --figure1 FILE.png [--section35 FILE.png]`
//! draws the paper's 2D Bézier example instead (Figure 1: a 12-UDOP built about a point against
//! a point, a segment, a circle and a quadratic Bézier curve, step by step) and a Section 3.5
//! example (k-UDOPs inside a closed parametric boundary from its Hermite pieces less their error
//! term), printing what each step did.

use std::path::PathBuf;
use std::process::ExitCode;

mod figures;
mod table;

use plotters::prelude::*;
use table::Experiment;

struct Args {
    scenes: usize,
    points: usize,
    k_max: usize,
    svg: Option<PathBuf>,
    figure1: Option<PathBuf>,
    section35: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        scenes: 50,
        points: table::POINTS_PER_SCENE,
        k_max: 300,
        svg: None,
        figure1: None,
        section35: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--scenes" => args.scenes = value()?.parse().map_err(|e| format!("--scenes: {e}"))?,
            "--points" => args.points = value()?.parse().map_err(|e| format!("--points: {e}"))?,
            "--k-max" => args.k_max = value()?.parse().map_err(|e| format!("--k-max: {e}"))?,
            "--svg" => args.svg = Some(PathBuf::from(value()?)),
            "--figure1" => args.figure1 = Some(PathBuf::from(value()?)),
            "--section35" => args.section35 = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                return Err(
                    "usage: udop-table [--scenes N] [--points P] [--k-max K] [--svg FILE] | \
                     [--figure1 FILE.png] [--section35 FILE.png]"
                        .into(),
                );
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.k_max < 4 || args.scenes == 0 {
        return Err("need --k-max >= 4 and --scenes >= 1".into());
    }
    Ok(args)
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    experiment: &Experiment,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let floor = 1e-6;
    let k0 = experiment.rows[0].k;
    let mean = experiment.mean_convergence();
    let top = experiment
        .convergence
        .iter()
        .flatten()
        .fold(floor, |m: f64, v| m.max(*v));
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Figure 4: area of the symmetric difference of the k- and (k+1)-UDOPs",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (k0 as f64)..((k0 + mean.len()) as f64),
            (floor..top * 1.5).log_scale(),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("k")
        .y_desc("area (log scale; 0 drawn at 1e-6)")
        .draw()
        .map_err(|e| e.to_string())?;
    for curve in &experiment.convergence {
        chart
            .draw_series(LineSeries::new(
                curve
                    .iter()
                    .enumerate()
                    .map(|(i, v)| ((k0 + i) as f64, v.max(floor))),
                BLUE.mix(0.25),
            ))
            .map_err(|e| e.to_string())?;
    }
    chart
        .draw_series(LineSeries::new(
            mean.iter()
                .enumerate()
                .map(|(i, v)| ((k0 + i) as f64, v.max(floor))),
            RED.stroke_width(2),
        ))
        .map_err(|e| e.to_string())?
        .label("mean")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("udop-table: {e}");
            return ExitCode::from(2);
        }
    };
    if args.figure1.is_some() || args.section35.is_some() {
        return draw_figures(&args);
    }
    let scenes = table::scenes(args.scenes, args.points, 2022);
    let experiment = table::run(&scenes, 3..=args.k_max);
    println!(
        "| k | Perimeter | Area | # of sides | # of sides / k | sides moved | capped scenes |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for row in &experiment.rows {
        println!(
            "| {} | {:.3} | {:.3} | {:.2} | {:.1}% | {:.2} | {} |",
            row.k,
            row.perimeter,
            row.area,
            row.sides,
            100.0 * row.sides_over_k,
            row.cut,
            row.capped
        );
    }
    if let Some(path) = &args.svg {
        cspace_font::register();
        let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
        if let Err(e) = draw(root, &experiment) {
            eprintln!("udop-table: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        eprintln!("udop-table: wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// Draws the PNG figures asked for (`--figure1`, `--section35`) and prints what each shows.
fn draw_figures(args: &Args) -> ExitCode {
    cspace_font::register();
    let jobs = [
        (&args.figure1, (1200, 820), true),
        (&args.section35, (1200, 640), false),
    ];
    for (path, size, first) in jobs {
        let Some(path) = path else { continue };
        let root = BitMapBackend::new(path, size).into_drawing_area();
        let drawn = if first {
            figures::draw_figure1(root)
        } else {
            figures::draw_section35(root)
        };
        match drawn {
            Ok(lines) => {
                for line in lines {
                    println!("{line}");
                }
                eprintln!("udop-table: wrote {}", path.display());
            }
            Err(e) => {
                eprintln!("udop-table: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
