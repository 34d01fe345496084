import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultFallbackRoot, FoldStore, resolveStoreDir, sessionKey } from "../../src/store/index.ts";
import { tempDir } from "./helpers.ts";

describe("resolveStoreDir", () => {
	it("puts a persisted session's store beside its session files", () => {
		expect(resolveStoreDir({ sessionDir: "/home/u/.pi/s", sessionId: "abc", storeDirName: "pi-fold-store" })).toBe(
			"/home/u/.pi/s/pi-fold-store",
		);
	});

	it("gives an in-memory session a per-user fallback under os.tmpdir(), keyed by session id", () => {
		const dir = resolveStoreDir({ sessionDir: undefined, sessionId: "0195-abc", storeDirName: "pi-fold-store" });
		expect(dir).toBe(join(defaultFallbackRoot(), "pi-fold-store", "0195-abc"));
		expect(dir.startsWith(tmpdir())).toBe(true);
		expect(defaultFallbackRoot()).toMatch(/pi-fold(-\d+)?$/);
		expect(resolveStoreDir({ sessionDir: "", sessionId: "s2", storeDirName: "pi-fold-evidence" })).toBe(
			join(defaultFallbackRoot(), "pi-fold-evidence", "s2"),
		);
		expect(
			resolveStoreDir({ sessionDir: undefined, sessionId: "s1", storeDirName: "pi-fold-store", fallbackRoot: "/x" }),
		).toBe("/x/pi-fold-store/s1");
	});

	it("keeps every session id inside the fallback folder (unsafe ids become a digest key)", () => {
		for (const id of ["../../etc", "a/b", ".hidden", "", "x".repeat(300)]) {
			const key = sessionKey(id);
			expect(key).toMatch(/^h[0-9a-f]{32}$/);
			expect(resolveStoreDir({ sessionDir: undefined, sessionId: id, storeDirName: "s", fallbackRoot: "/r" })).toBe(
				`/r/s/${key}`,
			);
		}
		expect(sessionKey("a/b")).not.toBe(sessionKey("a_b"));
		expect(() => resolveStoreDir({ sessionDir: "/s", sessionId: "x", storeDirName: "../up" })).toThrow(TypeError);
	});

	it("an in-memory session's fold store works from the fallback folder", async () => {
		const dir = resolveStoreDir({
			sessionDir: undefined,
			sessionId: "mem-1",
			storeDirName: "pi-fold-store",
			fallbackRoot: tempDir(),
		});
		const store = new FoldStore(dir, { durable: false });
		const { sha256 } = await store.put("in memory");
		expect(await store.read(sha256, "fold f1")).toBe("in memory");
	});
});
