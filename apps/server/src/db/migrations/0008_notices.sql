-- Notices: operator announcements with a title and body per locale (English is the fallback).
CREATE TABLE notices (
  id bigserial PRIMARY KEY,
  published_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE notice_texts (
  notice_id bigint NOT NULL REFERENCES notices (id),
  locale text NOT NULL,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
  PRIMARY KEY (notice_id, locale)
);
CREATE INDEX notices_published_at ON notices (published_at DESC, id DESC);
-- The welcome notice every new installation starts with, in the 12 interface languages.
INSERT INTO notices (id, published_at) VALUES (1, '2026-01-01T00:00:00Z');
SELECT setval('notices_id_seq', 1);
INSERT INTO notice_texts (notice_id, locale, title, body) VALUES
  (1, 'en', 'Welcome to Candor', 'Candor is open source. Every balance, fill and settlement can be checked against the journal and the recorded price tape. Prices here are simulated until the operator connects a real market feed, and the app labels them so. Demo accounts use demo money only.'),
  (1, 'zh-Hant', '歡迎使用 Candor', 'Candor 是開放原始碼軟體。每一筆餘額、成交與結算都可以對照日誌與已記錄的價格紀錄查核。在營運者接入真實行情之前，這裡的價格均為模擬價格，應用程式會如此標示。模擬帳戶只使用模擬資金。'),
  (1, 'jp', 'Candor へようこそ', 'Candor はオープンソースです。すべての残高、約定、決済は、ジャーナルと記録された価格履歴と照合して確認できます。運営者が実際の相場配信を接続するまで、ここでの価格はシミュレーションであり、アプリにもそう表示されます。デモ口座はデモ資金のみを使用します。'),
  (1, 'kr', 'Candor에 오신 것을 환영합니다', 'Candor는 오픈 소스입니다. 모든 잔액, 체결, 정산은 저널과 기록된 가격 기록으로 확인할 수 있습니다. 운영자가 실제 시세 피드를 연결하기 전까지 이곳의 가격은 시뮬레이션 가격이며, 앱에도 그렇게 표시됩니다. 데모 계정은 데모 자금만 사용합니다.'),
  (1, 'th', 'ยินดีต้อนรับสู่ Candor', 'Candor เป็นซอฟต์แวร์โอเพนซอร์ส ยอดคงเหลือ การจับคู่คำสั่ง และการชำระราคาทุกรายการตรวจสอบได้กับบันทึกรายการและข้อมูลราคาที่บันทึกไว้ ราคาที่นี่เป็นราคาจำลองจนกว่าผู้ให้บริการจะเชื่อมต่อข้อมูลตลาดจริง และแอปจะระบุไว้เช่นนั้น บัญชีทดลองใช้เงินทดลองเท่านั้น'),
  (1, 'es', 'Bienvenido a Candor', 'Candor es de código abierto. Cada saldo, ejecución y liquidación se puede comprobar con el diario y el registro de precios. Aquí los precios son simulados hasta que el operador conecte una fuente de mercado real, y la aplicación lo indica. Las cuentas demo solo usan dinero de demostración.'),
  (1, 'pt', 'Bem-vindo ao Candor', 'O Candor é de código aberto. Cada saldo, execução e liquidação pode ser conferido com o diário e o registo de preços. Aqui os preços são simulados até o operador ligar uma fonte de mercado real, e a aplicação indica-o. As contas demo usam apenas dinheiro de demonstração.'),
  (1, 'de', 'Willkommen bei Candor', 'Candor ist quelloffen. Jeder Saldo, jede Ausführung und jede Abrechnung lässt sich anhand des Journals und der aufgezeichneten Kurshistorie prüfen. Die Kurse hier sind simuliert, bis der Betreiber einen echten Marktdatenfeed anschließt, und die App kennzeichnet sie so. Demokonten verwenden nur Demogeld.'),
  (1, 'fr', 'Bienvenue sur Candor', 'Candor est open source. Chaque solde, exécution et règlement peut être vérifié dans le journal et l''historique des prix enregistré. Les prix sont simulés ici tant que l''opérateur n''a pas branché un vrai flux de marché, et l''application l''indique. Les comptes démo n''utilisent que de l''argent fictif.'),
  (1, 'sv', 'Välkommen till Candor', 'Candor är öppen källkod. Varje saldo, avslut och avräkning kan kontrolleras mot journalen och den registrerade kurshistoriken. Priserna här är simulerade tills operatören ansluter ett riktigt marknadsflöde, och appen märker dem så. Demokonton använder bara demopengar.'),
  (1, 'it', 'Benvenuto su Candor', 'Candor è open source. Ogni saldo, esecuzione e regolamento può essere verificato con il registro e lo storico dei prezzi. Qui i prezzi sono simulati finché l''operatore non collega un flusso di mercato reale, e l''app lo indica. I conti demo usano solo denaro dimostrativo.'),
  (1, 'ru', 'Добро пожаловать в Candor', 'Candor — программа с открытым исходным кодом. Каждый баланс, исполнение и расчёт можно проверить по журналу и записанной ленте цен. Здесь цены смоделированы, пока оператор не подключит реальный рыночный поток, и приложение помечает их так. Демо-счета используют только демо-деньги.');
