// A test session shared by the tests of what a person reads: a 16k window holding the agent's fold
// of six big probe results, then filled up again with four more (a real in-process Pi session on
// the faux provider, tests/pi/harness.ts).

import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, callTool, createHarness, type Harness, say, toolTexts } from "./harness.ts";

/** A 16k window holding a fold of six big results, then filled up again; `tui` records a TUI. */
export async function crowded(tui = true): Promise<{ h: Harness; id: string }> {
	const h = await createHarness({
		...(tui ? { ui: "tui" as const } : {}),
		contextWindow: 16_000,
		options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
	});
	const bigs = ["big1", "big2", "big3", "big4", "big5", "big6"];
	h.script([
		...bigs.map((k) => callProbes(k)),
		...["s1", "s2", "s3", "s4", "s5", "s6"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_big1", to: "call_big6", brief: "six big probes" }),
		...["big7", "big8", "big9", "big10"].map((k) => callProbes(k)),
		say("filled up"),
	]);
	await h.run("fill");
	const id = toolTexts(h)
		.map((t) => /^Folded (f[0-9a-f]{16}) /.exec(t)?.[1])
		.find((f) => f !== undefined && h.runtime.snapshot(h.host()).lattice.get(f));
	if (!id) throw new Error("the fold did not land");
	return { h, id };
}
