// Runs the TimerIndex contract against the in-process heap index.
import { MemoryTimerIndex } from '../../../src/engine/scheduler/memory-timer-index.js';
import { describeTimerIndexContract } from './timer-index.contract.js';

describeTimerIndexContract('memory', async () => new MemoryTimerIndex());
