import { DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from './clock.js';

/** The source of "now" (CLOCK) for every module; tests replace it with a fixed clock. */
@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = systemClock): DynamicModule {
    return {
      module: ClockModule,
      providers: [{ provide: CLOCK, useValue: clock }],
      exports: [CLOCK],
    };
  }
}
