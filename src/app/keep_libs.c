/* Sanitizer builds only: never unload shared libraries. GLFW and EGL dlclose the GL driver at exit;
 * LeakSanitizer then reports the driver's own still-held allocations with stack frames it can no
 * longer name, so they cannot be told apart from ours. Keeping the driver loaded lets LSan name
 * Mesa's frames and tests/lsan.supp suppress exactly those (and nothing of murmur's). */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
