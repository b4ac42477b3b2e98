// The part of the vendored Socket.IO client that static/js/connection.js uses, for the checker (`make jscheck`):
// with this beside it, tsc reads these types instead of checking the minified bundle.
export declare function io(options?: object): Socket;

interface Socket {
  readonly connected: boolean;
  on(event: string, fn: (...args: any[]) => void): Socket;
  emit(event: string, ...args: any[]): Socket;
  timeout(ms: number): { emitWithAck(event: string, ...args: any[]): Promise<any> };
}
