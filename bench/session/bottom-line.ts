// The demo's last words, in plain sentences at 80 columns: what pi-fold's default cost against the cheaper
// native arm (in dollars and as a ratio), what it recalled against it, which of the default's targets it
// missed, and how many of its targets the spec's epoch mode missed (that mode's, not the run's). Every
// figure is read from the report's arms and targets. Pure functions.

import { defaultArms } from "./default-targets.ts";
import { cheaperNative } from "./native-baseline.ts";
import type { ArmReport } from "./report-schema.ts";
import type { Report } from "./session-report.ts";
import type { Target } from "./targets.ts";

export const BOTTOM_LINE_COLUMNS = 80;

const usd = (n: number): string => `$${n.toFixed(2)}`;
const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const times = (n: number, one: string, many: string): string => `${int(n)} ${n === 1 ? one : many}`;

/** `text` in lines of at most `width` columns, the lines after the first indented by `indent`. */
export function wrap(text: string, width = BOTTOM_LINE_COLUMNS, indent = "  "): string[] {
	const lines: string[] = [];
	let line = "";
	for (const word of text.split(" ")) {
		const lead = lines.length === 0 ? "" : indent;
		if (line && lead.length + line.length + 1 + word.length > width) {
			lines.push(lead + line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	if (line) lines.push((lines.length === 0 ? "" : indent) + line);
	return lines;
}

function costSentence(arm: ArmReport, native: ArmReport, stages: number): string {
	const ratio = arm.totals.cost / native.totals.cost;
	const saved = native.totals.cost - arm.totals.cost;
	return (
		`Cost: pi-fold's default (${arm.name}, pi-fold as installed) cost ${usd(arm.totals.cost)} for the ${stages} stages; ` +
		`Pi's own compaction, in its cheaper setting here (${native.name}), cost ${usd(native.totals.cost)}. ` +
		`That is ${ratio.toFixed(2)}x, ${usd(Math.abs(saved))} ${saved >= 0 ? "less" : "more"}.`
	);
}

function recallSentence(arm: ArmReport, native: ArmReport): string {
	const answered = (a: ArmReport) =>
		`${a.probes.correct} of ${a.probes.total} questions about earlier work ` +
		`(${a.receiptProbes.correct} of ${a.receiptProbes.total} about receipts)`;
	const again = (a: ArmReport) =>
		a.rereads.count === 0 ? "read no file twice" : `read ${times(a.rereads.count, "file", "files")} again`;
	return `Recall: it answered ${answered(arm)} and ${again(arm)}; ${native.name} answered ${answered(native)} and ${again(native)}.`;
}

function missedSentence(targets: readonly Target[]): string {
	const ran = targets.filter((t) => t.met !== null);
	const missed = ran.filter((t) => t.met === false);
	if (missed.length === 0)
		return `Missed about the default: nothing; ${ran.length} of ${ran.length} of its targets above are met.`;
	const what = (t: Target) => `${t.target.replace(/^pi-fold's default: /, "")} (${t.measured})`;
	return `Missed about the default (${missed.length} of ${ran.length} targets): ${missed.map(what).join("; ")}.`;
}

/** The bottom line's lines, each at most 80 columns; a short note when the arms it compares did not both run. */
export function bottomLine(report: Report): string[] {
	const defaults = defaultArms(report.arms);
	const arm = defaults[0];
	const native = cheaperNative(report.arms);
	if (!arm || !native || native.totals.cost <= 0)
		return wrap(
			"Bottom line: none, since it compares pi-fold's default (pifold-ladder or pifold-agent) with a native arm and both did not run.",
		);
	const sentences = [costSentence(arm, native, arm.stageCount)];
	const agent = defaults[1];
	if (agent)
		sentences.push(
			`With an agent that also folds (${agent.name}): ${usd(agent.totals.cost)}, ${(agent.totals.cost / native.totals.cost).toFixed(2)}x.`,
		);
	sentences.push(recallSentence(arm, native), missedSentence(report.defaultTargets));
	const recallMissed = report.recallTargets.filter((t) => t.met === false).length;
	if (recallMissed > 0) sentences.push(`Recall targets missed: ${recallMissed} (the recall table above).`);
	const epoch = report.targets.filter((t) => t.mode === "epoch" && t.met !== null);
	if (epoch.length > 0)
		sentences.push(
			`Not the default: the spec's epoch mode (pifold-epoch) met ${epoch.filter((t) => t.met).length} of its ${epoch.length} targets (its table above).`,
		);
	const incomplete = report.arms.filter((a) => a.stagesCompleted < a.stageCount);
	if (incomplete.length > 0)
		sentences.push(`Stopped early: ${incomplete.map((a) => `${a.name} at stage ${a.stagesCompleted}`).join(", ")}.`);
	return ["Bottom line:", ...sentences.flatMap((s) => wrap(`- ${s}`))];
}
