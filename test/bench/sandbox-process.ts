/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs under jest or ts-node and is not published (package.json "files" is dist/ only) */
/**
 * The API sandbox in its own process for the benchmarks, so the measured process holds
 * only n8n and the node (the sandbox's stored PDFs do not count against its memory),
 * and the two share the machine's cores as a client and a service would.
 *
 * Same app as `npm run sandbox`, with one addition in front of it: a timing log of every
 * request (start and end in ms), read at GET /__bench/timings and cleared by
 * POST /__bench/timings/clear. The sandbox's own request log stays at /__sandbox/requests.
 *
 * The first stdout line is one JSON object {origin, baseUrl, apiKey}.
 */
import express from 'express';
import type { AddressInfo } from 'net';

import { installHourlyCheck } from '../sandbox/routes/admin';
import { createApp } from '../sandbox/server';
import { SandboxState } from '../sandbox/state';

export interface RequestTiming {
	method: string;
	path: string;
	status: number | null;
	start: number;
	end: number;
}

const state = new SandboxState();
installHourlyCheck(state);
let timings: RequestTiming[] = [];

const outer = express();
outer.disable('x-powered-by');
outer.get('/__bench/timings', (_req, res) => void res.json({ items: timings }));
outer.post('/__bench/timings/clear', (_req, res) => {
	timings = [];
	res.json({ cleared: true });
});
outer.use((req, res, next) => {
	const entry: RequestTiming = {
		method: req.method,
		path: req.originalUrl.split('?')[0],
		status: null,
		start: Date.now(),
		end: 0,
	};
	let done = false;
	const finish = () => {
		if (done) return;
		done = true;
		entry.end = Date.now();
		entry.status = res.writableFinished ? res.statusCode : null;
		timings.push(entry);
	};
	res.on('finish', finish);
	res.on('close', finish);
	next();
});
outer.use(createApp(state));

const server = outer.listen(0, '127.0.0.1', () => {
	const { port } = server.address() as AddressInfo;
	state.origin = `http://127.0.0.1:${port}`;
	process.stdout.write(
		`${JSON.stringify({ origin: state.origin, baseUrl: `${state.origin}/api/v1`, apiKey: state.apiKey.secret })}\n`,
	);
});

const stop = () => {
	state.clearTimers();
	server.closeAllConnections();
	server.close(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Ends with the parent: stdin closes when the parent goes away.
process.stdin.on('end', stop);
process.stdin.resume();
