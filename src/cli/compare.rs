//! `contact-lab compare SCENE`: every method from the same start, one row
//! each: the paper's event-driven scheme under each algorithm, then
//! time-stepping (Moreau–Jean, under Exact): [`contact_core::Method`].
//!
//! A method whose run stops (a step `Unsolved` or `Diverged`: the heap's
//! rolling resistance under the paper's scheme) keeps its row, with dashes
//! and "stopped at t", and the table says why under it, once per cause; the
//! others' rows stand. On a scene with friction the paper's algorithms,
//! which leave it aside, are marked "no μ", as in the app's compare mode.

use std::io::Write;

use contact_core::{Algorithm, Method, State};

use super::sim::{Stats, progress, simulate, step_count};
use super::{CliError, CompareArgs, io_err, load};

/// One method's run: its numbers and end state, or why it stopped (a step
/// `Unsolved` or `Diverged`).
struct Row {
    method: Method,
    run: Result<(Stats, State), CliError>,
}

/// Where a stopped run stopped, and why.
fn stop(e: &CliError) -> (f64, &str) {
    match e {
        CliError::Unsolved { t, cause, .. } | CliError::Diverged { t, cause, .. } => (*t, cause),
        _ => (f64::NAN, ""),
    }
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
        let run = match simulate(&mut world, scene.dt, steps, &bar, |_, _| Ok(())) {
            Ok(stats) => Ok((stats, world.state)),
            Err(e @ (CliError::Unsolved { .. } | CliError::Diverged { .. })) => Err(e),
            Err(e) => return Err(e),
        };
        rows.push(Row { method, run });
    }
    bar.finish_and_clear();
    // Nothing to compare when every run stopped: the first one's error.
    if let Some(Err(first)) = rows.iter().all(|r| r.run.is_err()).then(|| rows.remove(0).run) {
        return Err(first);
    }

    let reference = Method::event_driven(Algorithm::Exact);
    let exact: Option<Vec<f64>> =
        rows.iter().find(|r| r.method == reference).and_then(|r| r.run.as_ref().ok()).map(|(_, end)| end.q.clone());
    let friction = scene.world.model.has_friction();
    let no_mu = |m: Method| friction && m.algorithm != Algorithm::Exact;
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
            let name = format!("{}{}", r.method.label(), if no_mu(r.method) { ", no μ" } else { "" });
            let dash = || "—".to_string();
            match &r.run {
                Ok((stats, end)) => {
                    let dq = exact.as_ref().map_or_else(dash, |e| {
                        format!("{:.3e}", end.q.iter().zip(e).map(|(a, b)| (a - b) * (a - b)).sum::<f64>().sqrt())
                    });
                    [
                        name,
                        format!("{:.3e}", stats.max_penetration.value),
                        stats.min_lambda.as_ref().map_or_else(dash, |m| format!("{:.4e}", m.value)),
                        stats.events.to_string(),
                        format!("{:.3}", stats.solves_per_step()),
                        format!("{:.2}", stats.time_per_step().as_secs_f64() * 1e6),
                        dq,
                    ]
                }
                Err(e) => [name, format!("stopped at t = {} s", stop(e).0), dash(), dash(), dash(), dash(), dash()],
            }
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
    // Why runs stopped, once per cause, then what "no μ" means.
    let mut notes: Vec<String> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let Err(e) = &r.run else { continue };
        let cause = stop(e).1;
        let same = |o: &Row| o.run.as_ref().err().is_some_and(|f| stop(f).1 == cause);
        if rows[..i].iter().any(same) {
            continue;
        }
        let methods: Vec<&str> = rows.iter().filter(|o| same(o)).map(|o| o.method.label()).collect();
        notes.push(format!("{} stopped: {cause}", methods.join(", ")));
    }
    if rows.iter().any(|r| no_mu(r.method)) {
        notes.push("no μ: the paper's algorithms leave friction aside; Exact solves it (Coulomb's cone)".into());
    }
    if !notes.is_empty() {
        w(String::new())?;
        for note in notes {
            w(note)?;
        }
    }
    Ok(())
}
