// The benchmark-only extension: registers the `repo_stage` tool that hands out stages, checks keys, grades the
// previous stage's answers and note, and records reads and compactions into the run record. The only I/O is
// Pi's own (tool results become transcript entries).

import type { ExtensionAPI, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import type { PiHost } from "./pi-packages.ts";
import type { Plan, PlanStage } from "./plan.ts";
import {
	completionResult,
	countWords,
	NOTE_MAX_WORDS,
	NOTE_MIN_WORDS,
	STAGE_TOOL,
	stageResult,
	wrongKeyError,
} from "./protocol.ts";
import type { RunRecord } from "./record.ts";

export interface StageToolOptions {
	plan: Plan;
	record: RunRecord;
	/** Sequence number of the latest agent request, for attributing reads and compactions. */
	currentRequest: () => number;
	/** Called after a stage opens (progress reporting). */
	onStage?: () => void;
}

function stageParameters(Type: PiHost["typebox"]["Type"]) {
	return Type.Object({
		stage: Type.Number({ description: "Stage number to open (k+1 after finishing stage k), or to reissue." }),
		key: Type.Optional(Type.String({ description: "Key for this stage, given in the previous stage's result." })),
		answers: Type.Optional(
			Type.Record(Type.String(), Type.String(), {
				description: 'Answers to the previous stage\'s questions: {"q1": "..."}',
			}),
		),
		note: Type.Optional(Type.String({ description: "The previous stage's written note, when it asked for one." })),
		reissue: Type.Optional(Type.Boolean({ description: "Show an already opened stage again (counted)." })),
	});
}

interface StageParams {
	stage: number;
	key?: string;
	answers?: Record<string, string>;
	note?: string;
	reissue?: boolean;
}

export function stageToolExtension(host: PiHost, options: StageToolOptions): ExtensionFactory {
	const { plan, record } = options;
	const seen = new Set<string>();
	return (pi: ExtensionAPI) => {
		pi.registerTool({
			name: STAGE_TOOL,
			label: "Repo stage",
			description: "Open the next stage of the staged repository assignment, handing in the previous stage's work.",
			promptSnippet: "open the next stage of the staged assignment",
			promptGuidelines: [`Open stages with ${STAGE_TOOL} in order, using the key the previous stage gave.`],
			parameters: stageParameters(host.typebox.Type),
			async execute(_id, raw) {
				const opened = record.opened;
				const text = openStage(plan, record, raw as StageParams);
				if (record.opened !== opened) options.onStage?.();
				return { content: [{ type: "text", text }], details: undefined };
			},
		});
		pi.on("tool_result", (event) => {
			if (event.toolName !== "read" || event.isError) return;
			const path = String((event.input as { path?: unknown }).path ?? "");
			const chars = event.content.reduce((n, block) => n + (block.type === "text" ? block.text.length : 0), 0);
			record.reads.push({ afterRequest: options.currentRequest(), path, chars, reread: seen.has(path) });
			seen.add(path);
		});
		pi.on("session_compact", (event) => {
			record.compactions.push({
				reason: event.reason,
				tokensBefore: event.compactionEntry.tokensBefore,
				afterRequest: options.currentRequest(),
			});
		});
	};
}

/** The tool's logic: returns the result text or throws the error text the agent sees. */
export function openStage(plan: Plan, record: RunRecord, params: StageParams): string {
	const stage = Math.trunc(params.stage);
	if (params.reissue) {
		const target = plan.stages[stage - 1];
		if (!target || stage > record.opened)
			throw new Error(`Stage ${stage} has not been opened; only opened stages can be reissued.`);
		record.reissues++;
		return stageResult(plan, target, true);
	}
	if (record.complete) throw new Error("The assignment is already complete.");
	if (stage !== record.opened + 1)
		throw new Error(
			`Stage ${stage} cannot be opened now: the current stage is ${record.opened}; open stage ${record.opened + 1} next.`,
		);
	const expected = stage <= plan.stageCount ? (plan.stages[stage - 1] as PlanStage).key : plan.completionKey;
	if (params.key !== expected) {
		record.wrongKeys++;
		throw new Error(wrongKeyError(stage));
	}
	if (stage > 1) handIn(plan.stages[stage - 2] as PlanStage, record, params);
	record.opened = stage;
	if (stage > plan.stageCount) {
		record.complete = true;
		return completionResult(plan);
	}
	return stageResult(plan, plan.stages[stage - 1] as PlanStage, false);
}

function handIn(previous: PlanStage, record: RunRecord, params: StageParams): void {
	for (const q of previous.questions) {
		const given = params.answers?.[q.id]?.trim() ?? null;
		record.answers.push({
			stage: previous.stage,
			id: q.id,
			kind: q.kind,
			role: q.role,
			expected: q.answer,
			given,
			correct: given === q.answer,
		});
	}
	if (previous.note) {
		const words = countWords(params.note ?? "");
		record.notes.push({ stage: previous.stage, words, accepted: words >= NOTE_MIN_WORDS && words <= NOTE_MAX_WORDS });
	}
}
