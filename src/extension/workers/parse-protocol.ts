import type { ProfileData } from '../../analysis/model/profile';

/** Host → parse worker. */
export interface ParseRequest {
  path: string;
}

/** Parse worker → host. */
export type ParseResponse =
  | { type: 'progress'; fraction: number; message?: string }
  | { type: 'done'; data: ProfileData }
  | { type: 'error'; name: string; message: string };
