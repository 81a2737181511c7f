reminder-title = Eslatma
reminder-due = Muddat: { $when }
reminder-late = { $late } kechikib yuborildi: bot uni o'z vaqtida yubora olmadi.
button-done = ✅ Bajarildi
button-snooze-10m = 10 daqiqa
button-snooze-1h = 1 soat
button-snooze-tomorrow = Ertaga ertalab
button-snooze-custom = Boshqa vaqt…
