// Public surface of the receiver doctor: the cases, their pure grading, and the runner.
export { DOCTOR_CASES, caseInfo, type DoctorCaseId, type DoctorCaseInfo } from './cases.ts';
export { gradeCase, describeObservation, SLOW_ANSWER_MS, TOO_SLOW_ANSWER_MS, type DoctorGrade, type DoctorObservation, type DoctorVerdict } from './grade.ts';
export { requiredFields, sampleFromSchema } from './contract-sample.ts';
export {
  runDoctor,
  DOCTOR_MAX_REQUESTS,
  DOCTOR_MAX_DURATION_MS,
  DOCTOR_DEFAULT_TIMEOUT_MS,
  DOCTOR_HEADER,
  DOCTOR_ID_PREFIX,
  DOCTOR_DEFAULT_TYPE,
  type DoctorTarget,
  type DoctorSender,
  type DoctorRunOptions,
  type DoctorReport,
  type DoctorCaseResult,
  type DoctorRequestRecord,
  type DoctorStop,
} from './run-doctor.ts';
