/**
 * Scenario 9 of `npm run bench`: the trigger's signature check of a 64 KB body, per call,
 * beside what a hand-written check costs on the same CPU: node:crypto's HMAC-SHA256 of the
 * same body and a constant-time compare (what a Code node or the Crypto node would do). The
 * HMAC of 64 KB is most of the time on any CPU (0.04 ms on one, 0.18 ms on another), so the
 * target is a factor of that yardstick, measured in the same run (verdict.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';

import { computeSignature } from '../../nodes/DocumentSigningTrigger/hmacSchemes';
import { verifySignature } from '../../nodes/DocumentSigningTrigger/signature';
import { median, type Row } from './verdict';

const CALLS = 1000;
/** Rounds of CALLS calls, the two contenders in turn: a slow spell of the machine falls on both. */
const ROUNDS = 7;

function perCallMs(check: () => boolean): { ms: number; failed: number } {
	let failed = 0;
	const t0 = performance.now();
	for (let k = 0; k < CALLS; k++) if (!check()) failed++;
	return { ms: (performance.now() - t0) / CALLS, failed };
}

export function signatureCheck(): Row[] {
	const body = Buffer.from(
		JSON.stringify({
			id: 'evt_bench',
			event: 'document.sent',
			data: { note: 'x'.repeat(64 * 1024 - 80) },
		}),
	);
	const secret = randomBytes(24).toString('hex');
	const header = computeSignature(body, secret);
	const expected = Buffer.from(header, 'hex');
	const node = () => verifySignature({ rawBody: body, header, secret }).ok;
	const bare = () => timingSafeEqual(createHmac('sha256', secret).update(body).digest(), expected);
	for (let k = 0; k < 500; k++) {
		// warm-up
		node();
		bare();
	}
	const runs = { node: [] as number[], bare: [] as number[] };
	let failed = 0;
	for (let round = 0; round < ROUNDS; round++) {
		const n = perCallMs(node);
		const b = perCallMs(bare);
		runs.node.push(n.ms);
		runs.bare.push(b.ms);
		failed += n.failed + b.failed;
	}
	const note = `${body.length} bytes, median of ${ROUNDS} rounds of ${CALLS} calls`;
	const row = (contender: string, kind: Row['kind'], values: number[]): Row => ({
		scenario: '9',
		contender,
		kind,
		value: median(values),
		runs: values,
		failed,
		duplicates: 0,
		rateLimited: 0,
		serverErrors: 0,
		requests: 0,
		note,
	});
	return [
		row('trigger signature check, per call', 'node', runs.node),
		row('node:crypto HMAC-SHA256 and a constant-time compare, per call', 'raw', runs.bare),
	];
}
