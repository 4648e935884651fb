// The version gate before the SDK arrives. Re-exported by ../telegram.ts.
/**
 * The first Telegram client version that has each method (Telegram Mini Apps docs): the version gate
 * used only until the SDK has loaded (then the SDK's `supports` decides). A method not listed is
 * treated as unsupported, so it is never sent blind.
 */
export const METHOD_MIN_VERSION: Readonly<Record<string, string>> = {
  web_app_ready: "6.0",
  web_app_expand: "6.0",
  web_app_close: "6.0",
  web_app_request_viewport: "6.0",
  web_app_request_theme: "6.0",
  web_app_setup_main_button: "6.0",
  web_app_data_send: "6.0",
  web_app_setup_back_button: "6.1",
  web_app_trigger_haptic_feedback: "6.1",
  web_app_open_link: "6.1",
  web_app_open_tg_link: "6.1",
  web_app_set_header_color: "6.1",
  web_app_set_background_color: "6.1",
  web_app_open_invoice: "6.1",
  web_app_open_popup: "6.2",
  web_app_setup_closing_behavior: "6.2",
  web_app_open_scan_qr_popup: "6.4",
  web_app_close_scan_qr_popup: "6.4",
  web_app_read_text_from_clipboard: "6.4",
  web_app_switch_inline_query: "6.7",
  web_app_invoke_custom_method: "6.9",
  web_app_request_write_access: "6.9",
  web_app_request_phone: "6.9",
  web_app_setup_settings_button: "6.10",
  web_app_biometry_get_info: "7.2",
  web_app_biometry_request_access: "7.2",
  web_app_biometry_request_auth: "7.2",
  web_app_biometry_update_token: "7.2",
  web_app_biometry_open_settings: "7.2",
  web_app_setup_swipe_behavior: "7.7",
  web_app_share_to_story: "7.8",
  web_app_setup_secondary_button: "7.10",
  web_app_set_bottom_bar_color: "7.10",
  web_app_request_fullscreen: "8.0",
  web_app_exit_fullscreen: "8.0",
  web_app_request_file_download: "8.0",
  web_app_device_storage_save_key: "9.0",
  web_app_device_storage_get_key: "9.0",
  web_app_device_storage_clear: "9.0",
  web_app_secure_storage_save_key: "9.0",
  web_app_secure_storage_get_key: "9.0",
  web_app_secure_storage_clear: "9.0",
  web_app_request_safe_area: "8.0",
  web_app_request_content_safe_area: "8.0",
}

/** The gate before the SDK arrives. */
export const methodSupported = (method: string, version: string): boolean => {
  const minimum = METHOD_MIN_VERSION[method]
  return minimum !== undefined && versionAtLeast(version, minimum)
}

/** Compares dotted versions numerically ("6.10" > "6.9"). */
export const versionAtLeast = (version: string, minimum: string): boolean => {
  const a = version.split(".").map(Number)
  const b = minimum.split(".").map(Number)
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    if (Number.isNaN(x)) return false
    if (x !== y) return x > y
  }
  return true
}
