/**
 * The Status Trigger's "Recipient Acted" mode, polled as an active n8n workflow polls it
 * (test/harness/poll.ts), against the sandbox: recipients sign through their signing pages.
 */
import { type IDataObject, type INodeParameters, sleep } from 'n8n-workflow';

import { type Harness, startHarness } from '../harness';
import { startPollRunner } from '../harness/poll';
import { makePdf } from '../envelope/helpers';
import { act, listRequests, sent } from './helpers';

let h: Harness;
beforeAll(async () => {
	h = await startHarness();
});
afterAll(async () => await h.close());
beforeEach(async () => await h.reset());

const THREE = [
	{ name: 'Asha Rao', email: 'asha@example.com', role: 'signer', order: 1 },
	{ name: 'Vikram Shah', email: 'vikram@example.com', role: 'approver', order: 2 },
	{ name: 'Meera Iyer', email: 'meera@example.com', role: 'signer', order: 3 },
];

/** A sequential envelope with three recipients, sent: its recipients and their links in order. */
async function sequential(title: string): Promise<{ id: string; recipients: IDataObject[] }> {
	const created = await h.api<IDataObject>('POST', '/envelopes', {
		fileName: 'contract.pdf',
		title,
		recipients: THREE,
		workflow: { mode: 'sequential' },
	});
	const upload = created.upload as { url: string };
	await fetch(upload.url, {
		method: 'PUT',
		body: await makePdf(1, title),
		headers: { 'Content-Type': 'application/pdf' },
	});
	const response = await h.api<IDataObject>('POST', `/envelopes/${created.id as string}/send`, {});
	const recipients = (response.recipients as IDataObject[]).sort(
		(a, b) => Number(a.order) - Number(b.order),
	);
	return { id: created.id as string, recipients };
}

async function poller(parameters: INodeParameters = {}) {
	return await startPollRunner({
		credentials: {
			baseUrl: h.sandbox.baseUrl,
			apiKey: h.sandbox.apiKey,
			webhookSecret: h.sandbox.webhookSecret,
		},
		parameters: { event: 'recipientActed', ...parameters },
	});
}

async function runs(p: Awaited<ReturnType<typeof poller>>): Promise<IDataObject[]> {
	const result = await p.poll();
	return result ? result.items.map((item) => item.json) : [];
}

describe('Status Trigger, Recipient Acted', () => {
	it('starts one run per recipient of a sequential envelope signed one by one, with the right recipient each', async () => {
		const earlier = await sent(h, 'Signed before activation');
		await act(earlier.actionUrls[0]);
		const envelope = await sequential('Lease');
		const p = await poller();
		expect(await runs(p)).toEqual([]);

		const seen: IDataObject[] = [];
		for (const [index, recipient] of envelope.recipients.entries()) {
			await act(recipient.actionUrl as string);
			const started = await runs(p);
			expect(started).toHaveLength(1);
			expect(started[0]).toMatchObject({
				envelopeId: envelope.id,
				title: 'Lease',
				completedActions: index + 1,
				totalRecipients: 3,
				recipient: {
					id: recipient.id,
					name: THREE[index].name,
					email: THREE[index].email,
					role: THREE[index].role,
					order: index + 1,
				},
			});
			seen.push(started[0]);
			expect(await runs(p)).toEqual([]);
		}
		expect(seen.map((run) => (run.recipient as IDataObject).status)).toEqual([
			'signed',
			'approved',
			'signed',
		]);
		expect(seen.map((run) => run.change)).toEqual(['signed', 'other', 'signed']);
		expect(seen[2].status).toBe('completed');
		// The earlier envelope's second signature starts a run; its first, before activation, did not.
		await act(earlier.actionUrls[1]);
		expect((await runs(p)).map((run) => (run.recipient as IDataObject).name)).toEqual([
			'Vikram Shah',
		]);
	});

	it('passes a status the specification does not show (declined) through under Any Other Status Change only', async () => {
		const envelope = await sequential('Declined lease');
		const onlySigned = await poller({ recipientChanges: ['signed'] });
		const p = await poller();
		await runs(onlySigned);
		await runs(p);
		const declining = envelope.recipients[0];
		const set = await fetch(
			`${h.sandbox.origin}/__sandbox/envelopes/${envelope.id}/recipients/${declining.id as string}/status`,
			{
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ status: 'declined', envelopeStatus: 'declined' }),
			},
		);
		expect(set.status).toBe(200);
		const started = await runs(p);
		expect(started).toHaveLength(1);
		expect(started[0]).toMatchObject({
			envelopeId: envelope.id,
			status: 'declined',
			change: 'other',
			recipient: { id: declining.id, status: 'declined', previousStatus: 'pending' },
		});
		expect(await runs(onlySigned)).toEqual([]);
		expect(await runs(p)).toEqual([]);
	});

	it('filters by role', async () => {
		const envelope = await sequential('Roles');
		const p = await poller({ roles: ['approver'] });
		await runs(p);
		await act(envelope.recipients[0].actionUrl as string);
		expect(await runs(p)).toEqual([]);
		await act(envelope.recipients[1].actionUrl as string);
		expect((await runs(p)).map((run) => (run.recipient as IDataObject).role)).toEqual(['approver']);
	});

	it('reports the envelope as of the read that found the action, when it changes during the poll', async () => {
		const envelope = await sequential('Signed during the poll');
		const p = await poller();
		await runs(p);
		await act(envelope.recipients[0].actionUrl as string);
		await act(envelope.recipients[1].actionUrl as string);
		// Every API answer waits 300 ms: the last signature lands after the list has answered
		// (pending, 2 of 3) and before the envelope's progress read.
		await h.fault({ latencyMs: 300 });
		const from = (await h.requests()).length;
		const polled = runs(p);
		// real time: until the list request reaches the sandbox over real HTTP.
		while ((await listRequests(h, from)).length === 0) await sleep(10);
		await act(envelope.recipients[2].actionUrl as string);
		const started = await polled;
		await h.fault({});

		expect(started.map((run) => (run.recipient as IDataObject).order)).toEqual([1, 2, 3]);
		for (const run of started)
			expect([run.status, run.completedActions, run.totalRecipients]).toEqual(['completed', 3, 3]);
		expect(await runs(p)).toEqual([]);
	});

	it('loses and repeats nothing across an n8n restart between two signatures', async () => {
		const envelope = await sequential('Restart');
		const p = await poller();
		await runs(p);
		await act(envelope.recipients[0].actionUrl as string);
		expect(await runs(p)).toHaveLength(1);
		p.restart();
		expect(await runs(p)).toEqual([]);
		await act(envelope.recipients[1].actionUrl as string);
		p.restart();
		expect((await runs(p)).map((run) => (run.recipient as IDataObject).order)).toEqual([2]);
	});

	it('Fetch Test Event shows the newest action and changes no memory', async () => {
		const envelope = await sequential('Sample');
		await act(envelope.recipients[0].actionUrl as string);
		h.sandbox.state.advanceClock(5);
		await act(envelope.recipients[1].actionUrl as string);
		const p = await poller();
		const run = await p.manual();
		expect(run.items.map((i) => (i.json.recipient as IDataObject).name)).toEqual(['Vikram Shah']);
		expect(p.storedStaticData()).toEqual({});
	});

	it('works the same in the variant mode (its list order and largest page differ)', async () => {
		const variant = async (on: boolean) =>
			await fetch(`${h.sandbox.origin}/__sandbox/variant`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ on }),
			});
		await variant(true);
		try {
			const envelope = await sequential('Variant lease');
			const p = await poller();
			await runs(p);
			const orders: unknown[] = [];
			for (const recipient of envelope.recipients) {
				await act(recipient.actionUrl as string);
				orders.push(...(await runs(p)).map((run) => (run.recipient as IDataObject).order));
			}
			expect(orders).toEqual([1, 2, 3]);
		} finally {
			await variant(false);
		}
	});

	it('refuses an empty Roles or Changes choice before any request', async () => {
		const from = (await h.requests()).length;
		await expect((await poller({ roles: [] })).poll()).rejects.toThrow(
			'Roles: choose at least one option',
		);
		await expect((await poller({ recipientChanges: [] })).poll()).rejects.toThrow(
			'Changes: choose at least one option',
		);
		expect((await h.requests()).length).toBe(from);
	});
});
