/** The plugin's own module (stub until its models land). */
export default class PgsModuleService {}
