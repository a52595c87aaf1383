import { z } from 'zod';
import { LOCALES } from './locales';

/**
 * A language field of an API request (issue #24): one of LOCALES. A module of its own, apart from locales.ts, which the
 * landing screen's code imports: zod must not load with /donate (issue #5 bundle budget, decision 0091).
 */
export const LocaleSchema = z.enum(LOCALES, { error: `locale must be one of: ${LOCALES.join(', ')}` });
