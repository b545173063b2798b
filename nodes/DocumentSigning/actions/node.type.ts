import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** What every `actions/<resource>/<op>.operation.ts` module exports. */
export interface OperationModule {
	description: INodeProperties[];
	/** Runs the operation for item `itemIndex` alone (the router may run items concurrently later). */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** Resource values of the node, with the operation values of each (see the design's fixed names). */
export type DocumentSigningMap = {
	envelope:
		| 'create'
		| 'getMany'
		| 'getStatus'
		| 'send'
		| 'downloadFile'
		| 'getFields'
		| 'addRecipients'
		| 'checkEstamp';
	template:
		| 'create'
		| 'getMany'
		| 'get'
		| 'update'
		| 'archive'
		| 'restore'
		| 'duplicate'
		| 'deleteTemplate'
		| 'getDocumentPayload'
		| 'createDocument'
		| 'sendDocument';
	workflow: 'create' | 'update' | 'publish' | 'run' | 'getMany' | 'get';
	credit: 'getTransactions' | 'getUsage' | 'getBalance';
};

export type DocumentSigningResource = keyof DocumentSigningMap;
