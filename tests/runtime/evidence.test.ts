import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import {
	createEvidenceIngestor,
	DEFAULT_EVIDENCE_THRESHOLD_BYTES,
	type EvidenceRefusal,
	evidenceIngestorFor,
	mcpServerOf,
} from "../../src/runtime/index.ts";
import { EvidenceStore } from "../../src/store/index.ts";
import { sha256Hex } from "../../src/verify/index.ts";
import { tempDir } from "../store/helpers.ts";

const NAMESPACE = "pi-fold-active-context-mcp";
const big = (n: number, ch = "r") => [{ type: "text", text: ch.repeat(n) }];

function ingestor(dir: string, extra: { capBytes?: number; onRefused?: (r: EvidenceRefusal) => void } = {}) {
	return createEvidenceIngestor({
		store: new EvidenceStore(dir, { durable: false, ...(extra.capBytes ? { capBytes: extra.capBytes } : {}) }),
		isMcpTool: (name) => name.startsWith("mcp__"),
		thresholdBytes: 1000,
		namespace: NAMESPACE,
		...(extra.onRefused ? { onRefused: extra.onRefused } : {}),
	});
}

describe("evidence ingestion", () => {
	it("writes a result above the threshold as a read-only artifact and leaves smaller ones alone", async () => {
		const dir = tempDir();
		const { ingest } = ingestor(dir);
		expect(await ingest({ toolName: "read", toolCallId: "c1", content: big(900) })).toBeNull();
		expect(existsSync(dir) && readdirSync(dir)).toEqual([]);
		const content = big(5000);
		const before = JSON.stringify(content);
		const record = await ingest({ toolName: "read", toolCallId: "c2", content: Object.freeze(content) });
		expect(JSON.stringify(content)).toBe(before); // the model's view is untouched
		expect(record).toEqual({
			v: 1,
			kind: "evidence",
			toolName: "read",
			toolCallId: "c2",
			owner: { kind: "namespace", name: NAMESPACE },
			sha256: sha256Hex(before),
			bytes: Buffer.byteLength(before),
			encoding: "json",
			path: `ns/${NAMESPACE}/sha256/${sha256Hex(before).slice(0, 2)}/${sha256Hex(before)}`,
			created: true,
		});
		if (!record) throw new Error("unreachable");
		const file = join(dir, record.path);
		expect(readFileSync(file, "utf8")).toBe(before);
		expect(statSync(file).mode & 0o777).toBe(0o444);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(content);
		const text = await ingest({ toolName: "bash", toolCallId: "c3", content: "t".repeat(2000) });
		expect(text).toMatchObject({ encoding: "text", bytes: 2000 });
	});

	it("projects the MCP server of mcp__<server>__<tool> names into the artifact path", async () => {
		const dir = tempDir();
		const { ingest } = ingestor(dir);
		const gh = await ingest({ toolName: "mcp__github__list_issues", toolCallId: "m1", content: big(3000, "g") });
		expect(gh?.owner).toEqual({ kind: "mcp", name: "github" });
		expect(gh?.path).toMatch(/^mcp\/github\/sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
		const odd = await ingest({ toolName: "mcp__bad server__x", toolCallId: "m2", content: big(3000, "o") });
		expect(odd?.owner).toEqual({ kind: "namespace", name: NAMESPACE });
		expect(mcpServerOf("mcp__my_srv__do__thing")).toBe("my_srv");
		expect(mcpServerOf("mcp__a.b-c__t")).toBe("a.b-c");
		for (const name of ["mcp____t", "mcp__x", "read", "mcp__../x__t", "mcp__x/y__t"])
			expect(mcpServerOf(name)).toBeUndefined();
	});

	it("uses the namespace when isMcpTool says no (or throws), even for an mcp-shaped name", async () => {
		const dir = tempDir();
		for (const isMcpTool of [
			() => false,
			() => {
				throw new Error("host bug");
			},
		]) {
			const { ingest } = createEvidenceIngestor({
				store: new EvidenceStore(dir, { durable: false }),
				isMcpTool,
				thresholdBytes: 10,
				namespace: NAMESPACE,
			});
			const r = await ingest({ toolName: "mcp__github__x", toolCallId: "n", content: "z".repeat(50) });
			expect(r?.owner).toEqual({ kind: "namespace", name: NAMESPACE });
		}
	});

	it("enforces the session cap across many results: refused ones get no artifact and are reported", async () => {
		const dir = tempDir();
		const refusals: EvidenceRefusal[] = [];
		const { ingest } = ingestor(dir, { capBytes: 20_000, onRefused: (r) => refusals.push(r) });
		const records = await Promise.all(
			Array.from({ length: 12 }, (_, i) =>
				ingest({ toolName: "read", toolCallId: `c${i}`, content: `${i}`.padEnd(4000, "-") }),
			),
		);
		expect(records.filter((r) => r !== null)).toHaveLength(5);
		expect(refusals).toHaveLength(7);
		expect(refusals[0]?.reason).toMatch(/cap of 20000 bytes/);
		const usage = await new EvidenceStore(dir).usage();
		expect(usage).toBe(20_000);
	});

	it("evidenceIngestion: false creates no ingestor and writes nothing; true writes under <sessionDir>/pi-fold-evidence", async () => {
		const sessionDir = tempDir();
		const off = evidenceIngestorFor(resolveOptions({ evidenceIngestion: false }), { sessionDir, sessionId: "s" });
		expect(off).toBeUndefined();
		expect(readdirSync(sessionDir)).toEqual([]);
		const on = evidenceIngestorFor(resolveOptions({}), { sessionDir, sessionId: "s" });
		const record = await on?.ingest({
			toolName: "read",
			toolCallId: "c",
			content: "x".repeat(DEFAULT_EVIDENCE_THRESHOLD_BYTES + 1),
		});
		expect(record?.owner).toEqual({ kind: "namespace", name: NAMESPACE });
		expect(readdirSync(sessionDir)).toEqual(["pi-fold-evidence"]);
		expect(existsSync(join(sessionDir, "pi-fold-evidence", record?.path ?? "?"))).toBe(true);
		expect(
			await on?.ingest({ toolName: "read", toolCallId: "d", content: "x".repeat(DEFAULT_EVIDENCE_THRESHOLD_BYTES) }),
		).toBeNull();
	});

	it("the threshold default is a documented 64 KiB", () => {
		expect(DEFAULT_EVIDENCE_THRESHOLD_BYTES).toBe(64 * 1024);
	});
});
