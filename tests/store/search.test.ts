// Search over stored fold sources (src/store/search): the scanner finds a pattern in the JSON text
// the way it sits there (case-insensitive, escapes respected), gives the same hits however the blob
// is chunked, names each hit's entry and line and the anchors' exact ranges, stays in bounded
// memory; a blob that does not hash to its name keeps none of its hits; the worker pool bounds a
// pathological regex in time and keeps working afterwards.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
	BlobScanner,
	type CompiledQuery,
	closeSearchPools,
	compileQuery,
	FoldStore,
	SearchPool,
	searchBlobFile,
} from "../../src/store/index.ts";
import { LiteralFinder } from "../../src/store/search/literal.ts";
import { tempDir } from "./helpers.ts";

afterAll(() => closeSearchPools());

function query(pattern: string, regex = false): CompiledQuery {
	const compiled = compileQuery({ pattern, regex });
	if (!compiled.ok) throw new Error(compiled.error);
	return compiled.query;
}

function source(entries: { id: string; text: string }[]): string {
	return entries.map((e) => `${JSON.stringify({ id: e.id, message: { role: "user", content: e.text } })}\n`).join("");
}

function scan(src: string, q: CompiledQuery, chunk = 1 << 20, anchors: string[] = [], lineCarryBytes?: number) {
	const bytes = Buffer.from(src, "utf8");
	const scanner = new BlobScanner(q, {
		maxHits: 1_000,
		anchors: new Set(anchors),
		...(lineCarryBytes === undefined ? {} : { lineCarryBytes }),
	});
	for (let at = 0; at < bytes.length; at += chunk)
		scanner.push(bytes.subarray(at, at + chunk), at + chunk >= bytes.length);
	return scanner.outcome();
}

const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

describe("the scanner", () => {
	const src = source([
		{ id: "e1", text: 'Hello "World"\nsecond line with a NEEDLE in it' },
		{ id: "e2", text: "line\nfoo and needle again; a \\n literal" },
	]);

	it("finds the pattern case-insensitively and names each hit's entry, line and text line", () => {
		const out = scan(src, query("needle"));
		expect(out.hitCount).toBe(2);
		expect(out.hits.map((h) => [h.entryId, h.line, h.match])).toEqual([
			["e1", 2, "NEEDLE"],
			["e2", 2, "needle"],
		]);
		const first = out.hits[0];
		expect(first?.before).toBe("second line with a ");
		expect(
			Buffer.from(src)
				.subarray(first?.offset, (first?.offset ?? 0) + 6)
				.toString(),
		).toBe("NEEDLE");
		expect(first?.entryStart).toBe(0);
	});

	it("shows at most 60 bytes of the text line on each side of a match, and at most 80 of the match", () => {
		const line = source([{ id: "e1", text: `${"a".repeat(300)} NEEDLE ${"b".repeat(300)}` }]);
		const [hit] = scan(line, query("needle")).hits;
		expect(hit?.before).toBe(`${"a".repeat(59)} `);
		expect(hit?.after).toBe(` ${"b".repeat(59)}`);
		const [long] = scan(source([{ id: "e1", text: `x ${"n".repeat(200)} y` }]), query("n{100,}", true)).hits;
		expect(long?.match).toBe("n".repeat(80));
		expect(long?.after).toBe("…");
	});

	it("matches quotes and newlines as the source stores them, and never inside an escape", () => {
		expect(scan(src, query('"world"')).hitCount).toBe(1);
		expect(scan(src, query("line\nfoo")).hitCount).toBe(1);
		// "nfoo" is not in the text: the n is the escape of the newline before "foo".
		expect(scan(src, query("nfoo")).hitCount).toBe(0);
		// A literal backslash-n in the text is found as itself.
		expect(scan(src, query("a \\n literal")).hitCount).toBe(1);
	});

	it("runs regular expressions over the same text, case-insensitively", () => {
		const out = scan(src, query("need(le)? (in|again)", true));
		expect(out.hits.map((h) => h.match)).toEqual(["NEEDLE in", "needle again"]);
	});

	it("reports each anchor entry's exact byte range", () => {
		const out = scan(src, query("needle"), 7, ["e2"]);
		const [id, start, end] = out.anchors[0] as [string, number, number];
		expect(id).toBe("e2");
		expect(Buffer.from(src).subarray(start, end).toString()).toBe(src.split("\n").slice(1).join("\n"));
	});

	it("finds the same hits however the blob is chunked (property)", () => {
		const word = fc.constantFrom(
			"alpha",
			"Needle",
			"NEEDLE",
			"x",
			"é",
			"语",
			"😀",
			'"q"',
			"\n",
			"\\n",
			" ",
			"Zq",
			"zQ",
		);
		fc.assert(
			fc.property(
				fc.array(fc.array(word, { maxLength: 40 }), { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 64 }),
				(texts, chunk) => {
					const s = source(texts.map((t, i) => ({ id: `e${i}`, text: t.join("") })));
					const whole = scan(s, query("needle"));
					const parts = scan(s, query("needle"), chunk);
					expect(parts.hits).toEqual(whole.hits);
					// Without the entry carry only the excerpt window survives between chunks: same hits, lines aside.
					const lean = scan(s, query("needle"), chunk, [], 0);
					const noLine = (hits: typeof whole.hits) => hits.map(({ line: _, ...rest }) => rest);
					expect(noLine(lean.hits)).toEqual(noLine(whole.hits));
					// "zq" is found by its rare byte, "needle" through a lowercased copy: both ways agree with a count.
					const rare = scan(s, query("zq"), chunk);
					expect(rare.hitCount).toBe(
						texts.flatMap((t) => t.join("").toLowerCase().split("zq").length - 1).reduce((a, b) => a + b, 0),
					);
					const expected = texts
						.flatMap((t) => t.join("").toLowerCase().split("needle").length - 1)
						.reduce((a, b) => a + b, 0);
					expect(whole.hitCount).toBe(expected);
				},
			),
			{ numRuns: 150 },
		);
	});

	it("finds a regex match of up to 1,024 bytes whole across chunk boundaries", () => {
		const long = source([{ id: "e1", text: `x ${"n".repeat(1_000)} y` }]);
		const [whole] = scan(long, query("n{1000}", true)).hits;
		const [chunked, ...rest] = scan(long, query("n{1000}", true), 300).hits;
		expect(rest).toEqual([]);
		expect(chunked?.offset).toBe(whole?.offset);
		expect(chunked?.length).toBe(1_000);
		expect(whole?.length).toBe(1_000);
	});

	it("finds a needle with a rare byte by that byte, and one of common bytes through a lowercased copy", () => {
		const strategy = (p: string) => new LiteralFinder(Buffer.from(p.toLowerCase())).strategy;
		expect(strategy("receipt 4242")).toBe("rare byte");
		expect(strategy("zq")).toBe("rare byte");
		expect(strategy("needle")).toBe("lowercased copy");
	});

	it("keeps its window bounded however large the blob", () => {
		const line = `${JSON.stringify({ id: "big", message: { role: "user", content: "abc ".repeat(4_000_000) } })}\n`;
		const bytes = Buffer.from(line);
		const scanner = new BlobScanner(query("needle"), { maxHits: 5 });
		for (let at = 0; at < bytes.length; at += 1 << 20)
			scanner.push(bytes.subarray(at, at + (1 << 20)), at + (1 << 20) >= bytes.length);
		const held = (scanner as unknown as { buf: Uint8Array }).buf.length;
		expect(bytes.length).toBeGreaterThan(15_000_000);
		expect(held).toBeLessThanOrEqual(4 * 1024 * 1024);
	});
});

describe("compileQuery", () => {
	it.each([
		[{ pattern: "", regex: false }, /empty/],
		[{ pattern: "x".repeat(401), regex: false }, /at most 400/],
		[{ pattern: "(unclosed", regex: true }, /not a valid regular expression/],
		[{ pattern: "a*", regex: true }, /matches the empty string/],
	])("refuses %j", (q, message) => {
		const out = compileQuery(q);
		expect(out.ok).toBe(false);
		if (!out.ok) expect(out.error).toMatch(message);
	});
});

describe("searching a stored blob", () => {
	const text = source([{ id: "e1", text: "the needle is here" }]);

	it("hashes and scans the same read: a blob that does not hash to its name keeps none of its hits", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "good"), text);
		writeFileSync(join(dir, "bad"), text.replace("here", "HERE"));
		const good = searchBlobFile(join(dir, "good"), { sha256: sha(text) }, query("needle"), { maxHits: 5 });
		expect(good.ok && good.hitCount).toBe(1);
		const bad = searchBlobFile(join(dir, "bad"), { sha256: sha(text) }, query("needle"), { maxHits: 5 });
		expect(bad).toMatchObject({ ok: false, failure: "mismatch", actual: sha(text.replace("here", "HERE")) });
		expect(JSON.stringify(bad)).not.toContain("needle");
	});

	it("names a missing blob and never follows a symlink", () => {
		const dir = tempDir();
		writeFileSync(join(dir, "real"), text);
		symlinkSync(join(dir, "real"), join(dir, "link"));
		expect(searchBlobFile(join(dir, "none"), { sha256: sha(text) }, query("needle"), { maxHits: 5 })).toMatchObject({
			ok: false,
			failure: "missing",
		});
		expect(searchBlobFile(join(dir, "link"), { sha256: sha(text) }, query("needle"), { maxHits: 5 })).toMatchObject({
			ok: false,
			failure: "unreadable",
		});
	});

	it("refuses a FIFO in a blob's place without blocking on it (no writer ever opens it)", () => {
		const dir = tempDir();
		execFileSync("mkfifo", [join(dir, "fifo")]);
		expect(searchBlobFile(join(dir, "fifo"), { sha256: sha(text) }, query("needle"), { maxHits: 5 })).toMatchObject({
			ok: false,
			failure: "unreadable",
			detail: "not a regular file",
		});
	});

	it("searches a FoldStore on worker threads, results aligned with the targets", async () => {
		const store = new FoldStore(tempDir(), { durable: false });
		const a = await store.put(source([{ id: "a", text: "one needle" }]));
		const b = await store.put(source([{ id: "b", text: "no match" }]));
		const c = await store.put(source([{ id: "c", text: "needle, Needle" }]));
		const run = await store.search(
			[a, b, c].map((x) => ({ sha256: x.sha256 })),
			query("needle"),
			{
				maxHits: 10,
				timeLimitMs: 30_000,
			},
		);
		expect(run.stopped).toBeNull();
		expect(run.results.map((r) => (r?.ok ? r.hitCount : -1))).toEqual([1, 0, 2]);
	});
});

describe("the search pool's time bound", () => {
	it("stops a catastrophic regex at the time limit, then serves the next search", async () => {
		const dir = tempDir();
		const evil = `${"a".repeat(60)}!`;
		writeFileSync(join(dir, "evil"), evil);
		const pool = new SearchPool(1);
		try {
			const run = await pool.search(
				[{ path: join(dir, "evil"), target: { sha256: sha(evil) } }],
				query("(a+)+$", true),
				{
					maxHits: 5,
					timeLimitMs: 300,
				},
			);
			expect(run.stopped).toMatch(/300 ms time limit/);
			expect(run.results[0]).toBeUndefined();
			const next = await pool.search([{ path: join(dir, "evil"), target: { sha256: sha(evil) } }], query("aaa!"), {
				maxHits: 5,
				timeLimitMs: 30_000,
			});
			expect(next.stopped).toBeNull();
			expect(next.results[0]?.ok && next.results[0].hitCount).toBe(1);
		} finally {
			await pool.close();
		}
	});

	it("without workers, serves literal searches on the calling thread and refuses a regex", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "blob"), "a needle");
		const pool = new SearchPool(0);
		const item = { path: join(dir, "blob"), target: { sha256: sha("a needle") } };
		const run = await pool.search([item], query("needle"), { maxHits: 5, timeLimitMs: 1_000 });
		expect(run.results[0]?.ok && run.results[0].hitCount).toBe(1);
		await expect(pool.search([item], query("need+le", true), { maxHits: 5, timeLimitMs: 1_000 })).rejects.toThrow(
			/regex search needs a worker thread/,
		);
	});
});
