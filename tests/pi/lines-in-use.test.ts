// A real in-process Pi session (faux provider) in which the agent keeps quoting one line of a file it
// read long ago while it reads on: when the ladder folds that read, the line it quoted stays in the
// window verbatim (the fold's "In use" lines), the rest of the file leaves it, and the fold's names
// still name what the file held. Checked on what the provider is sent.

import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { createProbeTool } from "../helpers/pi-session.ts";
import { PROBE_READ_ONLY, records } from "./epoch-helpers.ts";
import { cleanupTempDirs, createHarness, probeResultText, say, textOf } from "./harness.ts";

afterAll(cleanupTempDirs);

const FILLER = Array.from({ length: 300 }, (_, i) => `// filler ${i}: nothing the agent needs from here`);
const SPEC = ["export const unusedKnob_77 = 1;", "export const retryBudgetMs = 4500;", ...FILLER].join("\n");

describe("a line the agent keeps quoting", () => {
	it("stays in the window verbatim when its read folds, while the rest of the file leaves", async () => {
		const probe = createProbeTool((key) => (key === "spec" ? SPEC : probeResultText(key)));
		const h = await createHarness({
			contextWindow: 16_000,
			probe,
			options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic", foldScheduling: "immediate" },
		});
		const steps = Array.from({ length: 10 }, (_, i) =>
			fauxAssistantMessage(
				[
					{ type: "text", text: `retryBudgetMs is still 4500 (step ${i + 1}).` },
					fauxToolCall("probe", { key: `big${i + 1}` }, { id: `call_big${i + 1}` }),
				],
				{ stopReason: "toolUse" },
			),
		);
		h.script([
			fauxAssistantMessage([fauxToolCall("probe", { key: "spec" }, { id: "call_spec" })], { stopReason: "toolUse" }),
			...steps,
			say("done"),
		]);
		await h.run("go");
		const specFold = records(h).find(
			(r) =>
				r.kind === "fold" &&
				r.fold.leafIds.length > 0 &&
				r.fold.brief.includes("1 tool result") &&
				r.fold.inUse?.includes("retryBudgetMs"),
		);
		expect(specFold, "the spec read was folded with its lines in use").toBeDefined();
		const last = h.requests.at(-1)?.messages ?? [];
		const text = last.map((m) => textOf(m)).join("\n");
		expect(text).not.toContain("// filler 150: nothing the agent needs from here");
		expect(text).toContain("  2: export const retryBudgetMs = 4500;");
		expect(text).toContain("unusedKnob_77");
	});
});
