/** What a MessagePort posts arrives at the other end: a structured clone (shared memory shared, not copied). */
import { MessageChannel, type MessagePort } from 'node:worker_threads';

export function posted<T>(message: T): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    (port2 as MessagePort).once('message', (arrived: T) => {
      port1.close();
      resolve(arrived);
    });
    port1.postMessage(message);
  });
}
