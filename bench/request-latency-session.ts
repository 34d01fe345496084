// The request-latency benchmark's session: one real in-process Pi AgentSession on the faux provider
// (a 64k-token model by default), Pi's own `read` tool over a generated text file, and one prompt the
// scripted model answers with N small ranged reads, one per request, then a last reply. With
// `piFold` set pi-fold is registered with its default options (its settings files are the run's own
// temp folder's: none); without it the session is Pi alone. Pi's native compaction is off unless
// `compaction` is set: then Pi's default thresholds apply and the faux provider answers each summary
// request with a short fixed summary (the faux provider has no window of its own, so with compaction
// off Pi alone's history simply grows); pi-fold's brief requests are answered the same way, outside
// the agent's steps. The time of each of the agent's requests is taken where the faux provider is
// asked for its response; pi-fold's hooks and tool are timed through fold-latency-session.ts's
// timing proxy of the ExtensionAPI (no handler of its own). Nothing in Pi is mocked.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Context, type FauxResponseStep, fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import {
	createAgentSession,
	DefaultResourceLoader,
	type ExtensionFactory,
	SessionManager,
} from "@earendil-works/pi-coding-agent";
import { registerPiFold } from "../src/pi/index.ts";
import { offlineRuntime, type Span, timedApi } from "./fold-latency-session.ts";
import { isBriefRequest } from "./session/brief-writer.ts";
import { isSummaryRequest } from "./session/compaction-summarizer.ts";

/** What the faux provider answers Pi's compaction with (Pi appends its file lists). */
const COMPACTION_SUMMARY =
	"## Goal\nRead the notes file range by range.\n\n## Progress\n### Done\n- [x] Earlier ranges read.\n\n## Next Steps\n1. Read the next range.";
/** What the faux provider answers pi-fold's brief requests with. */
const FOLD_BRIEF = "Ranged reads of notes.txt: numbered lines of prose, nothing decided.";
/** Lines in the file the session reads from. */
const FILE_LINES = 4_000;
/** Lines one ranged read returns. */
export const READ_LINES = 12;
const FILE_NAME = "notes.txt";

/** One run of the session: when each provider request arrived (performance.now(), ms), in order. */
export interface SessionRun {
	readonly requestTimes: readonly number[];
	/** Messages of the last request (Pi alone's grow with the session; pi-fold's fold). */
	readonly lastMessages: number;
	/** context_edit entries on the branch at the end (0 for Pi alone). */
	readonly contextEdits: number;
	/** Pi's compactions on the branch at the end. */
	readonly compactions: number;
	/** Requests answered outside the agent's steps: Pi's summary requests and pi-fold's brief requests. */
	readonly sideRequests: number;
	/** Requests each pi-fold commit record came before (the index of the next request; none for Pi alone). */
	readonly commitsAt: readonly number[];
	readonly errors: readonly string[];
	/** pi-fold's hooks and tool, each call timed (none for Pi alone). */
	readonly spans: readonly Span[];
	/** CPU time of the process over the session (user + system, ms). */
	readonly cpuMs: number;
}

export interface SessionOptions {
	/** Provider requests in the session: `requests - 1` reads, then the closing reply. */
	readonly requests: number;
	/** The model's context window in tokens. */
	readonly window: number;
	readonly piFold: boolean;
	/**
	 * Pi's native compaction on, with Pi's default settings (the faux provider answers its summary
	 * requests with a short fixed summary). Off: Pi alone's history simply grows.
	 */
	readonly compaction?: boolean;
	/** The run's own folder (its workspace, agent and session folders go under it). */
	readonly root: string;
	/** Called at each provider request with its index (0-based) and what the provider is sent. */
	readonly onRequest?: (index: number, context: Context) => void;
}

/** The text file the reads walk: numbered lines of plain prose. */
function writeWorkspace(cwd: string): void {
	mkdirSync(cwd, { recursive: true });
	const lines: string[] = [];
	for (let i = 1; i <= FILE_LINES; i++)
		lines.push(`${i}: entry ${i} of the notes, with a short remark about item ${(i * 7919) % 1000}.`);
	writeFileSync(join(cwd, FILE_NAME), `${lines.join("\n")}\n`);
}

/** The read the model asks for at request `i`: the next range, wrapping around the file. */
function readArgs(i: number): { path: string; offset: number; limit: number } {
	const ranges = Math.floor(FILE_LINES / READ_LINES);
	return { path: FILE_NAME, offset: (i % ranges) * READ_LINES + 1, limit: READ_LINES };
}

/** Runs one session of `requests` provider requests; resolves when the agent settles. */
export async function runSession(options: SessionOptions): Promise<SessionRun> {
	const cwd = join(options.root, "cwd");
	const agentDir = join(options.root, "agent");
	const sessionDir = join(options.root, "sessions");
	writeWorkspace(cwd);
	mkdirSync(sessionDir, { recursive: true });
	const { faux, modelRuntime, settingsManager } = await offlineRuntime(
		agentDir,
		"faux-64k",
		options.window,
		options.compaction === true,
	);
	const spans: Span[] = [];
	const extensionFactories: ExtensionFactory[] = options.piFold
		? [(pi) => void registerPiFold(timedApi(pi, spans), undefined, { agentDir })]
		: [];
	const resourceLoader = new DefaultResourceLoader({
		cwd,
		agentDir,
		settingsManager,
		extensionFactories,
		noContextFiles: true,
		noSkills: true,
		noPromptTemplates: true,
		noThemes: true,
	});
	await resourceLoader.reload();
	const { session } = await createAgentSession({
		cwd,
		agentDir,
		model: faux.getModel(),
		thinkingLevel: "off",
		modelRuntime,
		settingsManager,
		resourceLoader,
		sessionManager: SessionManager.create(cwd, sessionDir),
		tools: options.piFold ? ["read", "active_context"] : ["read"],
	});
	const errors: string[] = [];
	await session.bindExtensions({ onError: (error) => errors.push(`${error.event}: ${error.error}`) });
	const requestTimes: number[] = [];
	let lastMessages = 0;
	const commitsAt: number[] = [];
	session.subscribe((event) => {
		const entry = (event as { type: string; entry?: { type?: string; data?: { kind?: unknown; seq?: unknown } } })
			.entry;
		if (event.type === "entry_appended" && entry?.type === "custom" && entry.data?.kind === "commit")
			commitsAt.push(requestTimes.length);
	});
	// One step per request of the agent's; a summary request (Pi's compaction) or a brief request
	// (pi-fold's model-written brief) is answered and queues one more step, so the reads and the
	// closing reply keep their count and a step is the gap between two of the agent's requests.
	let reads = 0;
	let sideRequests = 0;
	const step: FauxResponseStep = (context) => {
		if (isSummaryRequest(context.messages) || isBriefRequest(context.messages)) {
			sideRequests++;
			faux.appendResponses([step]);
			return fauxAssistantMessage(isBriefRequest(context.messages) ? FOLD_BRIEF : COMPACTION_SUMMARY);
		}
		const i = reads++;
		requestTimes.push(performance.now());
		options.onRequest?.(i, context);
		lastMessages = context.messages.length;
		return i === options.requests - 1
			? fauxAssistantMessage("Read every range.")
			: fauxAssistantMessage(fauxToolCall("read", readArgs(i), { id: `read_${i}` }), { stopReason: "toolUse" });
	};
	const steps: FauxResponseStep[] = Array.from({ length: options.requests }, () => step);
	faux.appendResponses(steps);
	const cpu = process.cpuUsage();
	try {
		await session.prompt("Read the notes file range by range, one range per call.");
		await session.waitForIdle();
		const branch = session.sessionManager.getBranch();
		const contextEdits = branch.filter((e) => e.type === "context_edit").length;
		const compactions = branch.filter((e) => e.type === "compaction").length;
		const used = process.cpuUsage(cpu);
		return {
			requestTimes,
			lastMessages,
			contextEdits,
			compactions,
			sideRequests,
			commitsAt,
			errors,
			spans,
			cpuMs: (used.user + used.system) / 1000,
		};
	} finally {
		session.dispose();
	}
}

/** pi-fold's own time in each step: its hooks' and tool's calls between the two requests (ms). */
export function hookTimesOf(requestTimes: readonly number[], spans: readonly Span[]): number[] {
	const out = new Array<number>(Math.max(0, requestTimes.length - 1)).fill(0);
	let step = 0;
	for (const span of [...spans].sort((a, b) => a.start - b.start)) {
		while (step < out.length && span.start >= (requestTimes[step + 1] as number)) step++;
		if (step >= out.length) break;
		if (span.start >= (requestTimes[step] as number)) out[step] = (out[step] as number) + (span.end - span.start);
	}
	return out;
}

/** The gaps between consecutive provider requests (ms): step k is request k+1's time less request k's. */
export function stepsOf(requestTimes: readonly number[]): number[] {
	const steps: number[] = [];
	for (let i = 1; i < requestTimes.length; i++)
		steps.push((requestTimes[i] as number) - (requestTimes[i - 1] as number));
	return steps;
}
