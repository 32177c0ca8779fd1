-- Banner images (docs/back-office.md): an operator's upload of purpose `banner_image`, public
-- only through a banner that shows it, while that banner is shown.
ALTER TABLE uploads DROP CONSTRAINT uploads_purpose_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_purpose_check
  CHECK (purpose IN ('bank_deposit_proof', 'identity_document', 'avatar', 'support_image',
    'banner_image'));
ALTER TABLE banners ADD COLUMN image_upload_id text REFERENCES uploads (id);
