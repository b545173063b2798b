/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs under jest and is not published (package.json "files" is dist/ only) */
import path from 'path';

/** n8n's logger, as n8n-core's node contexts get it (n8n-core's own copies of its DI packages). */
export function n8nLogger(): {
	warn: (...args: unknown[]) => void;
	debug: (...args: unknown[]) => void;
} {
	// The copies n8n-core resolves, not the project's.
	const fromCore = (name: string) =>
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		require(require.resolve(name, { paths: [path.dirname(require.resolve('n8n-core'))] }));
	const { Container } = fromCore('@n8n/di');
	const { Logger } = fromCore('@n8n/backend-common');
	return Container.get(Logger);
}
