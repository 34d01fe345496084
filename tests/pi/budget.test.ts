// The serving budget as a user configures it: providerTotalWindow, when given, is the total window
// every ratio is computed against (less the output reservation); the transport's descriptor (the
// model's window, whose share is the one occupancy figure Pi's footer shows) is still reported, so
// the gap stays auditable.
import { afterAll, describe, expect, it } from "vitest";
import { callTool, cleanupTempDirs, createHarness, say, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

describe("the serving budget in status", () => {
	it("uses the model's descriptor when no providerTotalWindow is given", async () => {
		const h = await createHarness({ contextWindow: 100_000 });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 95,904 tokens \(total 100,000 from descriptor less 4,096 kept for the reply \(the model's whole output cap, under Pi's 16,384-token reserve\); Pi compacts on its own above 83,616 tokens\)/,
		);
	});

	it("uses providerTotalWindow as the total and still reports the descriptor", async () => {
		const h = await createHarness({ contextWindow: 100_000, options: { providerTotalWindow: 150_000 } });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/of the model's 100,000-token window .*· serving budget 145,904 tokens \(total 150,000 from providerTotalWindow less 4,096 kept for the reply \(the model's whole output cap, under Pi's 16,384-token reserve\); Pi compacts on its own above 83,616 tokens\)/,
		);
	});
});

describe("the room kept for the reply", () => {
	it("is Pi's compaction reserve from Pi's settings when the model's output cap is larger", async () => {
		// The faux model's output cap is 4,096; Pi's reserve set to 2,000 is what a reply keeps.
		const h = await createHarness({ contextWindow: 100_000, compaction: { enabled: false, reserveTokens: 2_000 } });
		h.script([callTool({ action: "status" }), say("done")]);
		await h.run("go");
		const [status] = toolTexts(h);
		expect(status).toMatch(
			/serving budget 98,000 tokens \(total 100,000 from descriptor less 2,000 kept for the reply \(the room Pi keeps for a reply; pi-ai sizes each reply to the room the prompt leaves, so the model's 4,096-token output cap is not held back\); Pi compacts on its own above 98,000 tokens\)/,
		);
	});
});
