/**
 * Test fixture (not a command): the CLI's request answerer on this process's own streams, asked the requests in
 * $REQUESTS (a JSON array of AskRequest) all at once, as servers would; prints `ANSWERS <json>` on stdout when every
 * one is settled. $APPROVE is the --approve value, $TIMEOUT_MS each request's deadline. Run it with and without a
 * terminal (util-linux `script` gives it one) to see what a person at a terminal, or no one, answers.
 */
import { RequestQueue, type AskRequest } from '../core/requests/queue';
import type { CliArgs } from './args';
import { answeringOptions, RequestAnswerer, samplingApproval } from './requests';

const requests = JSON.parse(process.env.REQUESTS ?? '[]') as AskRequest[];
const approve = (process.env.APPROVE || undefined) as CliArgs['approve'];
const timeoutMs = process.env.TIMEOUT_MS ? Number(process.env.TIMEOUT_MS) : undefined;

const queue = new RequestQueue(answeringOptions({ approve }));
const answerer = new RequestAnswerer(queue, { approve: samplingApproval(approve) });
const answers = await Promise.all(requests.map((r) => queue.ask(r, timeoutMs !== undefined ? { timeoutMs } : {})));
answerer.dispose();
queue.dispose();
process.stdout.write(`ANSWERS ${JSON.stringify(answers)}\n`);
