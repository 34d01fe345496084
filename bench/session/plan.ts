// The staged plan: deterministic from (corpus, seed, stages, stageChars), hashed and recorded. A stage hands
// out about `stageChars` of file bodies, a receipt code and the key of the next stage; every third stage
// revisits a file of an earlier stage; probe stages ask about earlier stages; note stages ask for a written note.
// Pure functions over an already loaded corpus.

import { keyDefinitionLine, keyDefinitions } from "./grading-facts.ts";
import { createRandom, type Random } from "./random.ts";
import { type PlanShape, type ReuseSchedule, reuseQuestion, reuseScheduleFor } from "./reuse-plan.ts";
import { type Corpus, type CorpusFile, sha256Hex } from "./session-corpus.ts";

export type QuestionKind = "line-count" | "definition-line" | "defining-file" | "receipt";

export interface Question {
	/** "q1", "q2", ... within its stage. */
	id: string;
	kind: QuestionKind;
	/**
	 * "revisit": about the earlier stage this stage revisits; "probe": one of a probe stage's questions; "reuse": a
	 * fact from a file read many stages earlier that the stage's work uses (reuse-plan.ts).
	 */
	role: "revisit" | "probe" | "reuse";
	/** The earlier stage the answer lies in. */
	aboutStage: number;
	file?: string;
	symbol?: string;
	candidates?: string[];
	/** The exact expected answer string. */
	answer: string;
}

export interface PlanStage {
	stage: number;
	/** Key that opens this stage (shown in the previous stage's result; stage 1's is in the task message). */
	key: string;
	/** Shown once, in this stage's first result; cannot be reread from disk. */
	receipt: string;
	files: string[];
	revisitOf?: number;
	questions: Question[];
	/** Asks for a 200-400 word note, due when the next stage is opened. */
	note: boolean;
}

export interface PlanFile {
	path: string;
	bytes: number;
	chars: number;
	lines: number;
	sha256: string;
}

export interface Plan {
	version: 1;
	seed: string;
	stageCount: number;
	stageChars: number;
	/** Probe stages are the multiples of this; note stages sit halfway between. */
	cadence: number;
	/** "standard", or "recall-every-four" (only the four-step recalls: no revisits, no probes). */
	shape: PlanShape;
	/** When reuse facts are asked (none: the plan as it was before reuse). */
	reuse: ReuseSchedule | null;
	corpusRule: string;
	corpusSha256: string;
	stages: PlanStage[];
	/** Key that completes the assignment (shown in the last stage's result). */
	completionKey: string;
	/** Every file a stage hands out, with its hash. */
	files: PlanFile[];
	/** SHA-256 of the canonical JSON of everything above. */
	hash: string;
}

export interface PlanOptions {
	seed: string;
	stages: number;
	stageChars: number;
	/** Default "standard". */
	shape?: PlanShape;
	/** Reuse facts in a standard plan (default on; the four-step shape always has its own). */
	reuse?: boolean;
}

/** Probe cadence: 16 for a 64-stage plan, never below 4 (so short test plans still probe). */
export function planCadence(stages: number): number {
	return Math.max(4, Math.min(16, Math.floor(stages / 4)));
}

export function isProbeStage(stage: number, cadence: number): boolean {
	return stage % cadence === 0;
}

export function isNoteStage(stage: number, cadence: number): boolean {
	return stage % cadence === cadence / 2 || (cadence % 2 === 1 && stage % cadence === (cadence - 1) / 2);
}

export function isRevisitStage(stage: number): boolean {
	return stage % 3 === 0;
}

interface Symbolic {
	file: CorpusFile;
	symbol: string;
	line: number;
}

/** What every stage draws on while the plan is built: the seeded random, the corpus indexes and the stages so far. */
interface PlanContext {
	random: Random;
	cadence: number;
	byPath: Map<string, CorpusFile>;
	unique: Symbolic[];
	pool: FilePool;
	/** The stages planned so far, in order. */
	stages: PlanStage[];
	shape: PlanShape;
	reuse: ReuseSchedule | undefined;
	/** The reuse facts' own random, so the rest of the plan is the same with reuse on or off. */
	reuseRandom: Random;
}

export function buildPlan(corpus: Corpus, options: PlanOptions): Plan {
	const random = createRandom(`${options.seed}/plan/${options.stages}/${options.stageChars}`);
	const cadence = planCadence(options.stages);
	const byPath = new Map(corpus.files.map((f) => [f.path, f]));
	const unique = uniqueDefinitions(corpus);
	const pool = filePool(corpus.files, random);
	const shape = options.shape ?? "standard";
	const reuse = reuseScheduleFor(shape, options.reuse ?? true);
	const reuseRandom = createRandom(`${options.seed}/reuse/${options.stages}/${options.stageChars}/${shape}`);
	const context: PlanContext = { random, cadence, byPath, unique, pool, stages: [], shape, reuse, reuseRandom };
	for (let stage = 1; stage <= options.stages; stage++)
		context.stages.push(planStage(stage, options.stageChars, context));
	const body = {
		version: 1 as const,
		seed: options.seed,
		stageCount: options.stages,
		stageChars: options.stageChars,
		cadence,
		shape,
		reuse: reuse ?? null,
		corpusRule: corpus.rule,
		corpusSha256: corpus.sha256,
		stages: context.stages,
		completionKey: `K${options.stages + 1}-${random.code(6)}`,
		files: planFiles(context.stages, byPath),
	};
	return { ...body, hash: sha256Hex(JSON.stringify(body)) };
}

/** One stage: its revisit (every third stage), fresh files up to `stageChars`, probe questions, key and receipt. */
function planStage(stage: number, stageChars: number, context: PlanContext): PlanStage {
	const { random, cadence } = context;
	const standard = context.shape === "standard";
	const revisit = standard && isRevisitStage(stage) && stage > 2 ? planRevisit(stage, context) : undefined;
	const files: string[] = revisit ? [revisit.file.path] : [];
	let chars = revisit ? revisit.file.chars : 0;
	for (const file of context.pool.take(stageChars - chars, new Set(files))) {
		files.push(file.path);
		chars += file.chars;
	}
	const questions: Question[] = revisit ? [revisit.question] : [];
	if (standard && isProbeStage(stage, cadence) && stage > 2) questions.push(...probeQuestions(stage, context));
	const reused = context.reuse
		? reuseQuestion(stage, context.reuse, context.stages, context.byPath, context.unique, context.reuseRandom)
		: undefined;
	if (reused) questions.push(reused);
	questions.forEach((q, i) => {
		q.id = `q${i + 1}`;
	});
	return {
		stage,
		key: `K${stage}-${random.code(6)}`,
		receipt: `R${stage}-${random.code(8)}`,
		files,
		...(revisit === undefined ? {} : { revisitOf: revisit.revisitOf }),
		questions,
		note: isNoteStage(stage, cadence),
	};
}

/** A revisit: a file of a random earlier stage handed out again, with a question about it. */
function planRevisit(stage: number, context: PlanContext): { revisitOf: number; file: CorpusFile; question: Question } {
	const { random } = context;
	const revisitOf = random.int(1, stage - 2);
	const earlier = context.stages[revisitOf - 1] as PlanStage;
	const path = random.pick(earlier.files);
	const file = context.byPath.get(path) as CorpusFile;
	const defs = context.unique.filter((d) => d.file.path === path);
	const kind: QuestionKind = stage % 2 === 0 && defs.length > 0 ? "definition-line" : "line-count";
	return { revisitOf, file, question: { ...fileQuestion(kind, revisitOf, file, defs, random), role: "revisit" } };
}

/** A probe stage's questions: a receipt of an earlier stage, then two of the three file kinds (rotating). */
function probeQuestions(stage: number, context: PlanContext): Question[] {
	const { random, stages } = context;
	const receiptStage = random.int(1, stage - 2);
	const questions: Question[] = [
		{
			id: "",
			kind: "receipt",
			role: "probe",
			aboutStage: receiptStage,
			answer: (stages[receiptStage - 1] as PlanStage).receipt,
		},
	];
	const kinds: QuestionKind[] = (["definition-line", "line-count", "defining-file"] as const).filter(
		(_, i) => i !== (stage / context.cadence) % 3,
	);
	for (const kind of kinds)
		questions.push({ ...probe(kind, stages, context.unique, context.byPath, random), role: "probe" });
	return questions;
}

/** Every file the stages hand out, sorted by path, with its size and hash. */
function planFiles(stages: PlanStage[], byPath: Map<string, CorpusFile>): PlanFile[] {
	const used = [...new Set(stages.flatMap((s) => s.files))].sort();
	return used.map((path) => {
		const f = byPath.get(path) as CorpusFile;
		return { path, bytes: f.bytes, chars: f.chars, lines: f.lines, sha256: f.sha256 };
	});
}

interface FilePool {
	take(budget: number, exclude: Set<string>): CorpusFile[];
}

/** Hands out files in a seeded order, each at most once until the pool runs dry (then it starts over). */
function filePool(all: CorpusFile[], random: Random): FilePool {
	let queue = random.shuffle(all);
	return {
		take(budget, exclude) {
			const out: CorpusFile[] = [];
			let chars = 0;
			const limit = budget * 1.05;
			for (let pass = 0; pass < 2 && chars < budget * 0.9; pass++) {
				const keep: CorpusFile[] = [];
				for (const file of queue) {
					if (chars < budget * 0.9 && chars + file.chars <= limit && !exclude.has(file.path)) {
						out.push(file);
						chars += file.chars;
					} else keep.push(file);
				}
				queue = keep;
				if (chars < budget * 0.9) queue.push(...random.shuffle(all));
			}
			return out;
		},
	};
}

/** Definitions whose symbol is defined in exactly one corpus file (so "which file defines it" has one answer). */
function uniqueDefinitions(corpus: Corpus): Symbolic[] {
	const owners = new Map<string, Symbolic[]>();
	for (const file of corpus.files) {
		if (!file.path.endsWith(".js")) continue;
		for (const d of keyDefinitions(file.text)) {
			if (d.symbol.length < 6) continue;
			const list = owners.get(d.symbol) ?? [];
			list.push({ file, symbol: d.symbol, line: d.line });
			owners.set(d.symbol, list);
		}
	}
	// A symbol must also not appear as a definition anywhere else, which keyDefinitions per file guarantees.
	return [...owners.values()].filter((l) => l.length === 1).map((l) => l[0] as Symbolic);
}

type Unassigned = Omit<Question, "role">;

function fileQuestion(
	kind: QuestionKind,
	aboutStage: number,
	file: CorpusFile,
	defs: Symbolic[],
	random: Random,
): Unassigned {
	if (kind === "definition-line" && defs.length > 0) {
		const d = random.pick(defs);
		return { id: "", kind, aboutStage, file: file.path, symbol: d.symbol, answer: String(d.line) };
	}
	return { id: "", kind: "line-count", aboutStage, file: file.path, answer: String(file.lines) };
}

function probe(
	kind: QuestionKind,
	stages: PlanStage[],
	unique: Symbolic[],
	byPath: Map<string, CorpusFile>,
	random: Random,
): Unassigned {
	const last = stages.length - 1; // probes look at least two stages back
	const stageOf = new Map<string, number>();
	for (const s of stages.slice(0, Math.max(1, last)))
		for (const p of s.files) if (!stageOf.has(p)) stageOf.set(p, s.stage);
	const withDefs = unique.filter((d) => stageOf.has(d.file.path));
	if (kind === "line-count" || withDefs.length === 0) {
		const path = random.pick([...stageOf.keys()]);
		const file = byPath.get(path) as CorpusFile;
		return fileQuestion("line-count", stageOf.get(path) as number, file, [], random);
	}
	const d = random.pick(withDefs);
	const aboutStage = stageOf.get(d.file.path) as number;
	if (kind === "definition-line") {
		if (keyDefinitionLine(d.file.text, d.symbol) !== d.line) throw new Error(`definition drift for ${d.symbol}`);
		return { id: "", kind, aboutStage, file: d.file.path, symbol: d.symbol, answer: String(d.line) };
	}
	const others = random.shuffle([...stageOf.keys()].filter((p) => p !== d.file.path)).slice(0, 2);
	const candidates = random.shuffle([d.file.path, ...others]);
	return { id: "", kind: "defining-file", aboutStage, symbol: d.symbol, candidates, answer: d.file.path };
}
