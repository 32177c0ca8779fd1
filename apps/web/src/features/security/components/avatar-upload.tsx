import { useQueryClient } from "@tanstack/react-query";
import { Avatar } from "antd-mobile";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { residenceKeys, uploadAvatar, useMe } from "../api/residence-api.ts";

/**
 * The profile picture: an uploaded image (through the uploads pipeline: recognised by content,
 * size and pixel limits, re-encoded without metadata, served to its owner only) or the preset.
 */
export function AvatarUpload() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const input = useRef<HTMLInputElement>(null);
  const uploadId = me.data?.avatarUploadId ?? null;
  const choose = async (file: File | undefined) => {
    if (!file) return;
    try {
      await withLoading(uploadAvatar(file));
      await queryClient.invalidateQueries({ queryKey: residenceKeys.me });
      showSuccess(t("settings.avatarSaved"));
    } catch (error) {
      showError(error);
    } finally {
      if (input.current) input.current.value = "";
    }
  };
  return (
    <label className="avatar-upload" title={t("settings.avatarUpload")}>
      <Avatar
        src={uploadId ? `/api/v1/uploads/${uploadId}` : ""}
        alt={t("settings.avatar")}
        style={{ "--size": "56px" }}
        data-testid="avatar-image"
      />
      <span className="hint">{t("settings.avatarUpload")}</span>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        className="visually-hidden"
        aria-label={t("settings.avatarUpload")}
        data-testid="avatar-file"
        onChange={(event) => void choose(event.target.files?.[0])}
      />
    </label>
  );
}
