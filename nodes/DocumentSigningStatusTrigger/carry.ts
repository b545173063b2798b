import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/**
 * Signed PDFs a poll downloaded past the point it could emit: a file before them failed or the
 * budget ended it while these were under way. A poll emits envelopes in order, so these go out
 * with a later poll; they are kept in this process for it, and the service is not asked for
 * them again. A poll in another process (n8n restarted, another main) fetches them once more.
 */
const KEEP_MS = 15 * 60_000;

interface Kept {
	at: number;
	item: INodeExecutionData;
}

/** Per trigger node and output field: envelope (id and change) to its item with the file. */
const kept = new Map<string, Map<string, Kept>>();

export interface FileCarry {
	/** The item kept for this envelope's change, if any. */
	get(id: string, updatedAt: string): INodeExecutionData | undefined;
	keep(id: string, updatedAt: string, item: INodeExecutionData): void;
	/** The envelope's change was emitted: its item is not needed any more. */
	drop(id: string, updatedAt: string): void;
}

export function fileCarry(this: IPollFunctions, binaryPropertyName: string): FileCarry {
	const node = this.getNode();
	const owner = `${this.getWorkflow().id ?? ''}\n${node.id ?? node.name}\n${binaryPropertyName}`;
	const now = Date.now();
	const entries = kept.get(owner) ?? new Map<string, Kept>();
	for (const [key, entry] of entries) if (now - entry.at > KEEP_MS) entries.delete(key);
	if (entries.size === 0) kept.delete(owner);
	const keyOf = (id: string, updatedAt: string) => `${id}\n${updatedAt}`;
	return {
		get: (id, updatedAt) => entries.get(keyOf(id, updatedAt))?.item,
		keep: (id, updatedAt, item) => {
			entries.set(keyOf(id, updatedAt), { at: now, item });
			kept.set(owner, entries);
		},
		drop: (id, updatedAt) => {
			entries.delete(keyOf(id, updatedAt));
			if (entries.size === 0) kept.delete(owner);
		},
	};
}
