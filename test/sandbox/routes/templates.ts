/** /api/v1/templates routes of the sandbox. */
import { Router } from 'express';
import type { SandboxState } from '../state';

export default function templatesRoutes(_state: SandboxState): Router {
	const router = Router();
	return router;
}
