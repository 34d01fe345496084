// The sweep's one compact table: every arm at every window, with the cost at the tiered table and at
// flat base rates, total tokens and fresh input, each with its ratio to the cheaper native arm at the
// same window (at that price table; tokens against the cheaper at the tiered one, native-baseline.ts),
// the peak request, compactions, probes (receipts), reused facts (raw / recalled / blind misses), stages
// completed; then the targets' verdicts.
// Pure.

import { cheaperNative, isNativeArm } from "./native-baseline.ts";
import type { ArmReport } from "./report-schema.ts";
import type { Report } from "./session-report.ts";
import { markdownRow, type SweepVerdict, verdictRows } from "./sweep-targets.ts";

const usd = (v: number) => `$${v.toFixed(2)}`;
const kTokens = (v: number) => `${(v / 1000).toFixed(v >= 100_000 ? 0 : 1)}k`;
const mTokens = (v: number) => `${(v / 1_000_000).toFixed(2)}M`;

function withRatio(value: string, own: number, native: number | undefined): string {
	return native === undefined || native === 0 || own === native ? value : `${value} (${(own / native).toFixed(2)}x)`;
}

function row(
	window: number,
	arm: ArmReport,
	native: ArmReport | undefined,
	nativeFlat: ArmReport | undefined,
): string[] {
	const t = arm.totals;
	const n = native?.totals;
	return [
		kTokens(window),
		arm.name,
		`${arm.stagesCompleted}/${arm.stageCount}`,
		withRatio(usd(t.cost), t.cost, n?.cost),
		withRatio(usd(t.flatCost), t.flatCost, nativeFlat?.totals.flatCost),
		withRatio(mTokens(t.totalTokens), t.totalTokens, n?.totalTokens),
		withRatio(mTokens(t.freshInput), t.freshInput, n?.freshInput),
		kTokens(t.peakContext),
		`${arm.compactions}`,
		`${arm.probes.correct}/${arm.probes.total} (${arm.receiptProbes.correct}/${arm.receiptProbes.total})`,
		arm.reuse && arm.reuse.facts > 0 ? `${arm.reuse.raw} / ${arm.reuse.recalled} / ${arm.reuse.blind}` : "-",
	];
}

const HEAD = [
	"window",
	"arm",
	"stages",
	"cost (tiered)",
	"cost (flat)",
	"tokens",
	"fresh input",
	"peak",
	"compactions",
	"probes (receipts)",
	"reused: raw / recalled / blind",
];

/** Which native was the cheaper at each window: "60k native, 372k native-tuned (flat: native)". */
function cheaperList(reports: readonly Report[]): string {
	return reports
		.map((r) => {
			const tiered = cheaperNative(r.arms, "tiered")?.name ?? "none";
			const flatName = cheaperNative(r.arms, "flat")?.name ?? "none";
			const window = `${(r.settings.window / 1000).toLocaleString("en-US")}k`;
			return `${window} ${tiered}${flatName === tiered ? "" : ` (flat: ${flatName})`}`;
		})
		.join(", ");
}

/** The compact Markdown table of a sweep and its verdicts. */
export function renderSweepTable(reports: readonly Report[], verdicts: readonly SweepVerdict[]): string {
	const rows = reports.flatMap((r) => {
		const native = cheaperNative(r.arms, "tiered");
		const nativeFlat = cheaperNative(r.arms, "flat");
		return r.arms.map((a) =>
			isNativeArm(a) ? row(r.settings.window, a, undefined, undefined) : row(r.settings.window, a, native, nativeFlat),
		);
	});
	const plan = reports[0]?.plan;
	const out = [
		plan
			? `Plan ${plan.hash.slice(0, 12)} (seed "${plan.seed}"); ratios are to the cheaper native arm at the same window and price table (${cheaperList(reports)}).`
			: "",
		"",
		markdownRow(HEAD),
		markdownRow(HEAD.map((_, i) => (i < 2 ? "---" : "---:"))),
		...rows.map(markdownRow),
		"",
		"Targets, judged on the whole sweep:",
		"",
		...verdictRows(verdicts),
	];
	return `${out.join("\n")}\n`;
}
