// Renders benchmark results as the text table `pi-fold bench` prints and docs/verifier.md records.
// Pure: returns strings.

import type { HashingBenchResult, ScenarioResult } from "./hashing.ts";

function fmtMs(ms: number): string {
	return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(0)} us`;
}

function fmtRate(mbPerS: number): string {
	return mbPerS >= 100 ? `${mbPerS.toFixed(0)} MB/s` : `${mbPerS.toFixed(1)} MB/s`;
}

function row(cells: string[], widths: number[]): string {
	return `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
}

function scenarioRows(s: ScenarioResult): string[][] {
	const rows: string[][] = [[s.title, s.ours.label, fmtMs(s.ours.ms), fmtRate(s.ours.mbPerS), "", ""]];
	for (const p of s.peers) {
		const t = s.targets.find((x) => x.peer === p.label);
		const target = t && t.min > 0 ? `>= ${t.min}x ${t.met ? "met" : "MISSED"}` : "report";
		rows.push(["", p.label, fmtMs(p.ms), fmtRate(p.mbPerS), t ? `${t.ratio.toFixed(2)}x` : "", target]);
	}
	return rows;
}

/** The results as a Markdown table headed by the machine line. */
export function renderHashingTable(result: HashingBenchResult): string {
	const m = result.machine;
	const head = ["scenario", "contender", "time", "rate", "pi-fold speed-up", "target"];
	const rows = result.scenarios.flatMap(scenarioRows);
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
	const c = result.engine;
	const lines = [
		`Node ${m.node} (OpenSSL ${m.openssl}), ${m.cpu} x${m.cores}, ${m.platform}, ${m.date}`,
		`engine calibration: stream=${c.stream} chunks=${c.chunks}; measured ${Object.entries(c.measured)
			.map(([k, v]) => `${k} ${v.toFixed(0)} MB/s`)
			.join(", ")}`,
		"",
		row(head, widths),
		row(
			widths.map((w) => "-".repeat(w)),
			widths,
		),
		...rows.map((r) => row(r, widths)),
	];
	return `${lines.join("\n")}\n`;
}
