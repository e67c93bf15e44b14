// Public surface of the receiver doctor: the cases, their pure grading, and the runner.

export {
  DOCTOR_DEFAULT_TYPE,
  DOCTOR_HEADER,
  DOCTOR_ID_PREFIX,
  type DoctorTarget,
} from './case-requests.ts';
export { caseInfo, DOCTOR_CASES, type DoctorCaseId, type DoctorCaseInfo } from './cases.ts';
export { requiredFields, sampleFromSchema } from './contract-sample.ts';
export {
  type DoctorGrade,
  type DoctorObservation,
  type DoctorVerdict,
  describeObservation,
  gradeCase,
  SLOW_ANSWER_MS,
  TOO_SLOW_ANSWER_MS,
} from './grade.ts';
export {
  DOCTOR_DEFAULT_TIMEOUT_MS,
  DOCTOR_MAX_DURATION_MS,
  DOCTOR_MAX_REQUESTS,
  type DoctorCaseResult,
  type DoctorReport,
  type DoctorRequestRecord,
  type DoctorRunOptions,
  type DoctorSender,
  type DoctorStop,
  runDoctor,
} from './run-doctor.ts';
