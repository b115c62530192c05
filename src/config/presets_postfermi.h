/* The post-Fermi presets' settings (presets_postfermi.c): NULL-terminated
 * "name", "value" pairs, read by config.c's preset table. */
#ifndef WARPSIM_CONFIG_PRESETS_POSTFERMI_H
#define WARPSIM_CONFIG_PRESETS_POSTFERMI_H

extern const char *const ws_preset_qv100[];
extern const char *const ws_preset_titanv[];
extern const char *const ws_preset_rtx2060[];
extern const char *const ws_preset_rtx3070[];

#endif
