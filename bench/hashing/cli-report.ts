// Renders `pi-fold bench --cli` results as Markdown tables under 100 columns, one per scenario and
// pass, each followed by the peak memory of pi-fold's command. Pure: returns strings.

import type { CliBenchResult, CliPass, CliScenario } from "./cli-bench.ts";

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(3)} s`;
}

function table(s: CliScenario): string[] {
	const head = ["contender", "median", "rate", "ratio", "target"];
	const body = s.rows.map((r) => [
		r.label,
		seconds(r.ms),
		`${r.mbPerS.toFixed(0)} MB/s`,
		r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}x`,
		r.target === undefined
			? r.ratio === undefined
				? ""
				: "report"
			: `>= ${Number(r.target.toFixed(2))}x ${r.met ? "met" : "MISSED"}`,
	]);
	const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
	const right = [false, true, true, true, false];
	const line = (cells: string[]) =>
		`| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(" | ")} |`;
	const rule = `| ${widths.map((w, i) => (right[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
	return [s.title, "", line(head), rule, ...body.map(line)];
}

function pass(p: CliPass): string[] {
	const env = Object.entries(p.env).filter(([k]) => k !== "PI_FOLD_CACHE_DIR");
	const lines = [`### ${p.name}${env.length > 0 ? ` (${env.map(([k, v]) => `${k}=${v}`).join(" ")})` : ""}`, ""];
	for (const s of p.scenarios) lines.push(...table(s), "");
	for (const m of p.memory)
		lines.push(
			`peak memory of ${m.label}: ${(m.bytes / 1e6).toFixed(1)} MB (target <= ${m.limit / 1e6} MB: ${m.met ? "met" : "MISSED"})`,
		);
	return [...lines, ""];
}

/** The results as Markdown, headed by the machine and the CLI that ran. */
export function renderCliTable(r: CliBenchResult): string {
	const m = r.machine;
	const head = [
		`Node ${m.node} (OpenSSL ${m.openssl}), ${m.cpu} x${m.cores}, ${m.platform}, ${m.date}`,
		`load average (1 min) ${r.load.start.toFixed(2)} when the timed runs started, ${r.load.end.toFixed(2)} at the end`,
		`fresh processes, median of ${r.options.repeats} interleaved runs each after a checked warm-up`,
		`CLI: ${r.cli}`,
		"ratio = peer time / pi-fold time; for pi-fold verify --workers 0: the one-thread script's",
		"time / its time (target: within 10% of the script)",
		"",
	];
	return `${[...head, ...r.passes.flatMap(pass)].join("\n").trimEnd()}\n`;
}
