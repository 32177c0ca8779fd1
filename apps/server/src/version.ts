/** The version of this build, shown by the health endpoint and in the app's settings. */
export const version = "0.1.0";
