//! `contact-lab compare SCENE`: every method from the same start, one row
//! each: the paper's event-driven scheme under each algorithm, then
//! time-stepping (Moreau–Jean, under Exact): [`contact_core::Method`].

use std::io::Write;

use contact_core::{Algorithm, Method, State};

use super::sim::{Stats, progress, simulate, step_count};
use super::{CliError, CompareArgs, io_err, load};

/// One method's run.
struct Row {
    method: Method,
    stats: Stats,
    end: State,
}

/// Runs `args.scene` under every method and writes the table to `out`.
pub fn compare(args: &CompareArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let scene = load(&args.scene, args.balls)?;
    let duration = args.duration.unwrap_or(scene.duration);
    let steps = step_count(duration, scene.dt)?;
    for warning in scene.world.stability_warnings(scene.world.settings.tau, scene.dt) {
        writeln!(out, "warning: {warning}").map_err(io_err)?;
    }
    let bar = progress(steps * Method::ALL.len() as u64, &scene.name);
    let mut rows = Vec::new();
    for method in Method::ALL {
        let mut world = scene.world.clone();
        method.apply(&mut world.settings);
        bar.set_message(format!("{}: {}", scene.name, method.label()));
        let stats = simulate(&mut world, scene.dt, steps, &bar, |_, _| Ok(()))?;
        rows.push(Row { method, stats, end: world.state });
    }
    bar.finish_and_clear();

    let reference = Method::event_driven(Algorithm::Exact);
    let exact = rows.iter().find(|r| r.method == reference).map(|r| r.end.q.clone()).unwrap_or_default();
    let s = &scene.world.settings;
    let mut w = |line: String| writeln!(out, "{line}").map_err(io_err);
    w(format!("{} ({})", scene.name, args.scene.display()))?;
    w(format!(
        "{} steps of h = {} s ({} s), tau = {} s, events {}, impulses {}, restitution {}",
        steps,
        scene.dt,
        steps as f64 * scene.dt,
        s.tau,
        if s.events.enabled { "on" } else { "off" },
        s.events.impulses.label(),
        s.events.restitution
    ))?;
    w(String::new())?;
    let header = ["method", "max penetration (m)", "min λ", "events", "solves/step", "time/step (µs)", "|q − q_Exact|"];
    let table: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            let dq = r.end.q.iter().zip(&exact).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt();
            [
                r.method.label().to_string(),
                format!("{:.3e}", r.stats.max_penetration.value),
                r.stats.min_lambda.as_ref().map_or("—".to_string(), |m| format!("{:.4e}", m.value)),
                r.stats.events.to_string(),
                format!("{:.3}", r.stats.solves_per_step()),
                format!("{:.2}", r.stats.time_per_step().as_secs_f64() * 1e6),
                format!("{dq:.3e}"),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| table.iter().map(|row| row[c].chars().count()).chain([header[c].chars().count()]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[&str]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let pad = widths[c].saturating_sub(s.chars().count());
                // The name left-aligned, the numbers right-aligned.
                if c == 0 { format!("{s}{}", " ".repeat(pad)) } else { format!("{}{s}", " ".repeat(pad)) }
            })
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    w(line(&header))?;
    for row in &table {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        w(line(&cells))?;
    }
    Ok(())
}
