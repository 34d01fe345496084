// The decision beside Pi's native compaction (src/runtime/compaction-decision.ts), pure: a threshold
// compaction is cancelled only when pi-fold's own commit for the request succeeded and the request
// as it stands fits the serving budget of the model in force, with something to fold at the next
// boundary; a paused runtime, a failed boundary, a request over the budget (a model that shrank) or
// nothing foldable let it run, each with a one-line reason; manual and overflow always pass.

import { describe, expect, it } from "vitest";
import { budgetFor } from "../../src/policy/index.ts";
import { type CompactionInputs, compactionDecision } from "../../src/runtime/compaction-decision.ts";
import { batchSession, snapshotOf } from "../helpers/snapshot.ts";

const snap = snapshotOf(batchSession(12, "read"));
const big = budgetFor({ contextWindow: 200_000, maxTokens: 8_000 }, undefined);
const small = budgetFor({ contextWindow: 16_000, maxTokens: 4_096 }, undefined);

function inputs(over: Partial<CompactionInputs> = {}): CompactionInputs {
	return {
		brandNoun: "active-context",
		readOnlyTools: new Set(["read"]),
		foldPeekResults: false,
		toolName: "active_context",
		paused: null,
		boundaryFailed: null,
		request: { tokens: 14_000, budget: big },
		...over,
	};
}

describe("compactionDecision", () => {
	it("cancels a threshold compaction when the request fits the budget and there is something to fold", () => {
		const note = compactionDecision("threshold", snap, inputs());
		expect(note.decision).toBe("cancelled");
		expect(note.why).toMatch(
			/keeps the window inside its band: 0 fold\(s\) in force, ~[\d,]+ tokens reclaimable at the next commit; the request of ~14,000 tokens fits the serving budget of 192,000$/,
		);
		expect(note.notice).toBeUndefined();
	});

	it("lets it run when the request is over the budget of the model in force (a smaller model)", () => {
		const note = compactionDecision("threshold", snap, inputs({ request: { tokens: 14_000, budget: small } }));
		expect(note.decision).toBe("passed");
		expect(note.notice).toBe(
			"active-context: Pi's compaction runs because the request of ~14,000 tokens is over the serving budget of 11,904 (window 16,000 less 4,096 kept for the reply); folds made before it stay readable (peek, search)",
		);
	});

	it("lets it run when the last boundary's commit failed, saying why", () => {
		const note = compactionDecision("threshold", snap, inputs({ boundaryFailed: "EIO: i/o error" }));
		expect(note.decision).toBe("passed");
		expect(note.why).toBe("active-context's last commit failed (EIO: i/o error)");
	});

	it("lets it run while automatic folding is paused, whatever the room", () => {
		const paused = "automatic folding paused: the fold store cannot be written";
		const note = compactionDecision("threshold", snap, inputs({ paused }));
		expect(note.decision).toBe("passed");
		expect(note.why).toBe("automatic folding is paused: the fold store cannot be written");
	});

	it("lets it run when nothing could be folded", () => {
		const protectedAll = snapshotOf(
			batchSession(12, "read"),
			batchSession(12, "read").map((e) => e.id),
		);
		const note = compactionDecision("threshold", protectedAll, inputs());
		expect(note.decision).toBe("passed");
		expect(note.why).toBe("active-context has nothing it could fold losslessly");
	});

	it("always lets a manual /compact and an overflow run", () => {
		expect(compactionDecision("manual", snap, inputs()).decision).toBe("passed");
		expect(compactionDecision("overflow", snap, inputs()).decision).toBe("passed");
	});
});
