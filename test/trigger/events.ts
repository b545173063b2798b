/**
 * Realistic webhook event bodies (spec part 6 and the payload guesses in assumptions.ts),
 * generated deterministically, serialised the way the service sends them (compact JSON).
 */
import { randomBytes } from 'crypto';

const TITLES = [
	'Rental agreement – Flat 4B',
	'Employment offer: Priya Sharma',
	'किराया अनुबंध (Bengaluru)',
	'NDA "Project Falcon" / v2',
	'Loan agreement ₹5,00,000',
	'Vendor contract\nannexure A',
	'Café lease — Pondicherry',
	'Sale deed 😀 test',
];

const KINDS = [
	'document.estamp.started',
	'document.estamp.completed',
	'document.estamp.failed',
	'document.sent',
] as const;

/** A small deterministic generator, so a failing case can be reproduced. */
function rng(seed: number) {
	let s = seed >>> 0;
	return () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

function dataFor(
	kind: (typeof KINDS)[number],
	i: number,
	pick: () => number,
): Record<string, unknown> {
	const envelopeId = `env_${(1000 + i).toString(36)}${Math.floor(pick() * 1e6)}`;
	const title = TITLES[i % TITLES.length];
	const occurredAt = new Date(Date.UTC(2026, 0, 1) + i * 61_000).toISOString();
	const transactionId = `txn_${Math.floor(pick() * 1e9)}`;
	const reference = `REF-${i}-${Math.floor(pick() * 1e4)}`;
	switch (kind) {
		case 'document.estamp.started':
			return { envelopeId, title, status: 'pending', transactionId, reference, occurredAt };
		case 'document.estamp.completed':
			return {
				envelopeId,
				title,
				status: 'completed',
				transactionId,
				reference,
				certificateId: `IN-KA${Math.floor(pick() * 1e12)}`,
				documentId: `doc_${i}`,
				occurredAt,
			};
		case 'document.estamp.failed':
			return {
				envelopeId,
				title,
				status: 'failed',
				transactionId,
				reference,
				error: 'Provider rejected the stamp duty amount',
				occurredAt,
			};
		case 'document.sent':
			return {
				envelopeId,
				title,
				status: 'pending',
				recipients: [
					{
						id: `rcp_${i}a`,
						name: 'Asha Rao',
						email: 'asha@example.com',
						role: 'signer',
						order: 1,
						status: 'pending',
					},
					{
						id: `rcp_${i}b`,
						name: 'José Núñez',
						email: 'jose@example.com',
						role: 'cc',
						order: 2,
						status: 'pending',
					},
				],
				occurredAt,
			};
	}
}

export interface SampleEvent {
	object: { id: string; event: string; createdAt: string; data: Record<string, unknown> };
	raw: Buffer;
}

export function sampleEvents(count: number, seed = 42): SampleEvent[] {
	const pick = rng(seed);
	const out: SampleEvent[] = [];
	for (let i = 0; i < count; i++) {
		const kind = KINDS[i % KINDS.length];
		const object = {
			id: `evt_${i.toString(36)}_${randomBytes(4).toString('hex')}`,
			event: kind,
			// Recent, as a live delivery is: the trigger refuses events older than its replay window.
			createdAt: new Date(Date.now() - (count - i) * 1_000).toISOString(),
			data: dataFor(kind, i, pick),
		};
		out.push({ object, raw: Buffer.from(JSON.stringify(object), 'utf8') });
	}
	return out;
}
