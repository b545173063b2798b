/** /api/v1/workflows routes of the sandbox. */
import { Router } from 'express';
import type { SandboxState } from '../state';

export default function workflowsRoutes(_state: SandboxState): Router {
	const router = Router();
	return router;
}
