// Global test setup: every test process gets one private, temporary agent directory
// (PI_CODING_AGENT_DIR, which Pi's getAgentDir() reads), so the key that signs pi-fold's decision
// records is created there and never in the real ~/.pi/agent. Removed when the run ends.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
	const dir = mkdtempSync(join(tmpdir(), "pi-fold-tests-agent-"));
	process.env.PI_CODING_AGENT_DIR = dir;
	return () => rmSync(dir, { recursive: true, force: true });
}
