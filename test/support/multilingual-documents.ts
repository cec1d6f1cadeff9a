/**
 * Short documents in the eight languages docproc classifies, written for the multilingual
 * specs and `npm run bench:classify-eval`: each language has an invoice, a till receipt and
 * a bank statement (the near neighbours) and two other kinds. Names, numbers and companies
 * are invented. Pages are separated by a form feed.
 */
export interface MultilingualDocument {
  language: 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pt' | 'pl';
  category: string;
  text: string;
}

export const MULTILINGUAL_DOCUMENTS: MultilingualDocument[] = [
  // German
  {
    language: 'de',
    category: 'invoice',
    text: `Müller Haustechnik GmbH · Lindenstraße 12 · 80331 München
USt-IdNr. DE 812345678

Herrn Jonas Weber
Gartenweg 4, 85521 Ottobrunn

Rechnung Nr. 2024-0117                 Rechnungsdatum: 14.03.2024
Leistungszeitraum: März 2024

Pos. Bezeichnung                    Menge   Einzelpreis   Gesamt
1    Wartung Gastherme              1       180,00 €      180,00 €
2    Dichtungssatz                  2        12,50 €       25,00 €
3    Anfahrt                        1        35,00 €       35,00 €

Nettobetrag                                    240,00 €
zzgl. 19 % MwSt.                                45,60 €
Gesamtbetrag                                   285,60 €

Bitte überweisen Sie den Betrag innerhalb von 14 Tagen ohne Abzug auf unser Konto
IBAN DE12 5001 0517 0648 4898 90. Vielen Dank für Ihren Auftrag.`,
  },
  {
    language: 'de',
    category: 'receipt',
    text: `EDEKA Neukauf Schmidt
Hauptstr. 5, 50667 Köln
Tel. 0221 123456

BANANEN               1,29 A
VOLLMILCH 3,5%        1,15 A
BROT DINKEL           2,79 A
KAFFEE CREMA          6,99 A
--------------------------
SUMME EUR            12,22
GEGEBEN BAR          20,00
RÜCKGELD              7,78

MwSt   Netto   Steuer  Brutto
A 7%   11,42    0,80   12,22

14.03.2024  18:42  Kasse 3  Bon 4711
Vielen Dank für Ihren Einkauf!`,
  },
  {
    language: 'de',
    category: 'bank_statement',
    text: `Sparkasse KölnBonn
Kontoauszug Nr. 3/2024                    Blatt 1
Girokonto 1234567890  IBAN DE44 3705 0198 1234 5678 90
Kontoinhaber: Anna Becker
Zeitraum 01.03.2024 - 31.03.2024

Alter Kontostand vom 29.02.2024            1.245,30 +
01.03. Miete Wohnung Lastschrift             850,00 -
04.03. Gehalt März Firma Nordlicht AG      2.480,00 +
11.03. Kartenzahlung REWE Markt               63,12 -
18.03. Bargeldauszahlung Geldautomat         200,00 -
29.03. Kontoführungsentgelt                    4,95 -
Neuer Kontostand vom 31.03.2024            2.607,23 +

Bitte prüfen Sie die Buchungen. Einwendungen sind innerhalb von sechs Wochen zu erheben.`,
  },
  {
    language: 'de',
    category: 'medical_record',
    text: `Klinikum Nord – Innere Medizin
Arztbrief / Entlassungsbericht

Patientin: Maria Hoffmann, geb. 03.07.1958

Diagnosen: Ambulant erworbene Pneumonie rechts basal, arterielle Hypertonie.
Anamnese: Seit fünf Tagen Fieber bis 39 °C, produktiver Husten und Belastungsdyspnoe.
Befund: RR 145/90 mmHg, Puls 96/min, SpO2 93 % unter Raumluft. Rasselgeräusche rechts.
Labor: CRP 128 mg/l, Leukozyten 14,2 G/l.
Therapie: Ampicillin/Sulbactam i.v. für 5 Tage, danach Amoxicillin 1 g 3x täglich oral.
Procedere: Kontrolle beim Hausarzt in einer Woche, Röntgen-Thorax nach 6 Wochen.

Mit freundlichen Grüßen
Dr. med. Thomas Keller, Oberarzt`,
  },
  {
    language: 'de',
    category: 'contract',
    text: `Dienstleistungsvertrag

zwischen der Firma Alpha Consulting GmbH, Berlin (nachfolgend „Auftraggeber“)
und Frau Lena Brandt, Hamburg (nachfolgend „Auftragnehmerin“).

§ 1 Gegenstand: Die Auftragnehmerin erbringt Beratungsleistungen im Bereich Datenschutz.
§ 2 Pflichten der Parteien: Der Auftraggeber stellt alle erforderlichen Unterlagen bereit.
§ 3 Vergütung: Die Vergütung beträgt 95 € pro Stunde zuzüglich Umsatzsteuer.
§ 4 Laufzeit und Kündigung: Der Vertrag beginnt am 1. April 2024 und kann mit einer Frist
von vier Wochen zum Monatsende gekündigt werden.
§ 5 Vertraulichkeit: Beide Seiten behandeln vertrauliche Informationen vertraulich.
§ 6 Schlussbestimmungen: Es gilt deutsches Recht. Gerichtsstand ist Berlin.

Berlin, den 20.03.2024

______________________            ______________________
Unterschrift Auftraggeber          Unterschrift Auftragnehmerin`,
  },
  // French
  {
    language: 'fr',
    category: 'invoice',
    text: `Atelier Dubois SARL – 14 rue des Lilas, 69003 Lyon
SIRET 812 345 678 00012 – TVA intracommunautaire FR 12 812345678

FACTURE N° F-2024-0231
Date : 12/03/2024
Client : Boulangerie Martin, 8 place Bellecour, 69002 Lyon

Désignation                         Qté    Prix unitaire HT   Montant HT
Réparation vitrine réfrigérée        1        320,00 €          320,00 €
Pièces détachées                     3         18,00 €           54,00 €

Total HT                                                     374,00 €
TVA 20 %                                                      74,80 €
Total TTC                                                    448,80 €

Échéance : 11/04/2024 – Règlement par virement bancaire.
En cas de retard, une pénalité de trois fois le taux d'intérêt légal sera appliquée.`,
  },
  {
    language: 'fr',
    category: 'receipt',
    text: `CARREFOUR MARKET
12 AV JEAN JAURES 75019 PARIS

BAGUETTE TRADITION        1,10
YAOURT NATURE X4          2,35
POMMES GOLDEN             3,48
EAU MINERALE 6X1,5L       3,90
TOTAL                    10,83
CB SANS CONTACT          10,83
************4821
AUTO 084213

TVA 5,5%  HT 10,27  TVA 0,56
11/03/2024 17:21 CAISSE 07
MERCI DE VOTRE VISITE - A BIENTOT`,
  },
  {
    language: 'fr',
    category: 'bank_statement',
    text: `Crédit Mutuel – Agence Nantes Centre
RELEVÉ DE COMPTE du 01/02/2024 au 29/02/2024
Titulaire : M. Pierre Lefèvre
Compte courant n° 00012345601 – IBAN FR76 1027 8360 0000 0123 4560 142

Date     Libellé                                  Débit      Crédit
         Solde précédent                                     1 532,10
02/02    PRLV SEPA EDF                            86,40
05/02    VIR SALAIRE SOCIETE ATLAS                          2 310,00
09/02    PAIEMENT CB LECLERC NANTES               74,18
15/02    RETRAIT DAB NANTES                       60,00
28/02    COTISATION CARTE VISA                     3,50
         Nouveau solde au 29/02/2024                         3 558,02`,
  },
  {
    language: 'fr',
    category: 'resume',
    text: `Camille Rousseau
Ingénieure logiciel – camille.rousseau@mail.fr – 06 12 34 56 78 – Toulouse

PROFIL
Développeuse backend avec 7 ans d'expérience dans les systèmes de paiement.

EXPÉRIENCE PROFESSIONNELLE
2019 – aujourd'hui  Lead développeuse, Airbus Digital, Toulouse
2016 – 2019         Développeuse Java, Sopra Steria, Paris

FORMATION
2016  Diplôme d'ingénieur, INSA Lyon, informatique

COMPÉTENCES
Java, Kotlin, PostgreSQL, Kubernetes, AWS
Langues : français (natif), anglais (courant), espagnol (notions)`,
  },
  {
    language: 'fr',
    category: 'tax_form',
    text: `DIRECTION GÉNÉRALE DES FINANCES PUBLIQUES
Formulaire n° 2042 – Déclaration des revenus 2023
Numéro fiscal du déclarant : 12 34 567 890 123

Situation du foyer fiscal : marié(e) – cases à cocher  M [x]  C [ ]  D [ ]

1 – TRAITEMENTS, SALAIRES
Revenus d'activité déclarés par l'employeur      case 1AJ   38 420
Heures supplémentaires exonérées                  case 1GH      640
Frais réels                                       case 1AK
2 – REVENUS DES VALEURS ET CAPITAUX MOBILIERS      case 2TR      112
Impôt prélevé à la source                          case 8HV    3 214

Je certifie l'exactitude des renseignements portés sur cette déclaration.
Date et signature :`,
  },
  // Dutch
  {
    language: 'nl',
    category: 'invoice',
    text: `Bakker Installatietechniek B.V.
Kerkstraat 21, 3511 LX Utrecht – KvK 12345678 – btw NL001234567B01

Factuur 2024-0088
Factuurdatum: 05-03-2024
Debiteur: Van Dijk Vastgoed, Oudegracht 101, Utrecht

Omschrijving                    Aantal   Prijs      Totaal
Onderhoud cv-ketel              1        95,00      95,00
Vervangen thermostaat           1        149,00     149,00
Voorrijkosten                   1        29,50      29,50

Subtotaal                                 273,50
Btw 21%                                    57,44
Totaal te betalen                         330,94

Gelieve het bedrag binnen 30 dagen over te maken op NL91 ABNA 0417 1643 00
onder vermelding van het factuurnummer.`,
  },
  {
    language: 'nl',
    category: 'receipt',
    text: `ALBERT HEIJN 1432
Stationsplein 8 Amersfoort

AH HALFVOLLE MELK        1,19
GOUDA JONG 48+           4,89
APPELS ELSTAR            2,49
STROOPWAFELS             1,99
TOTAAL                  10,56
BETAALD MET PINPAS      10,56
Terminal 9F12AB  Autorisatiecode 331902

BTW 9%  over 9,69  =  0,87
07-03-2024 12:03  Kassa 4
Bedankt en tot ziens!`,
  },
  {
    language: 'nl',
    category: 'bank_statement',
    text: `Rabobank Utrecht e.o.
Rekeningafschrift nr. 2 – periode 01-02-2024 t/m 29-02-2024
Rekeninghouder: S. de Vries – Rekeningnummer NL20 RABO 0123 4567 89

Datum    Omschrijving                         Af          Bij
         Beginsaldo                                       812,40
01-02    Huur februari Woonstichting          725,00
06-02    Salaris Gemeente Utrecht                         2.654,12
12-02    Betaalautomaat Jumbo Utrecht          58,31
20-02    Geldopname Utrecht CS                 50,00
29-02    Kosten betaalpakket                    3,60
         Eindsaldo                                        2.629,61`,
  },
  {
    language: 'nl',
    category: 'research_paper',
    text: `Het effect van thuiswerken op de arbeidsproductiviteit: een panelstudie
J. Visser¹, M. Jansen²
¹ Universiteit van Amsterdam, Faculteit Economie  ² Erasmus Universiteit Rotterdam

Samenvatting
We onderzoeken de relatie tussen thuiswerken en productiviteit met paneldata van 2.400 werknemers.

1. Inleiding
Sinds 2020 werkt een groot deel van de beroepsbevolking deels thuis [1].
2. Methode
We schatten een fixed-effects regressiemodel op kwartaalgegevens (2019–2023).
3. Resultaten
Thuiswerken hangt samen met een stijging van 3,1 % in output per uur (p < 0,01).
4. Discussie en conclusie
De effecten verschillen sterk per sector; vervolgonderzoek is nodig.

Referenties
[1] Bloom, N. et al. (2015). Does working from home work? Quarterly Journal of Economics, 130(1).`,
  },
  {
    language: 'nl',
    category: 'medical_record',
    text: `Huisartsenpraktijk De Linde – consultverslag
Patiënt: H. Bos, geboren 12-11-1971

S: Sinds drie dagen pijn bij het plassen en vaak aandrang, geen koorts.
O: Temp 37,2 °C, bloeddruk 128/82, urinestick nitriet positief, leukocyten ++.
E: Ongecompliceerde urineweginfectie.
P: Nitrofurantoïne 100 mg 2 dd gedurende 5 dagen. Terugkomen bij koorts of flankpijn.

Arts: dr. E. Smit`,
  },
  // Spanish
  {
    language: 'es',
    category: 'invoice',
    text: `Reformas Hermanos García S.L. – CIF B12345678
C/ Mayor 23, 28013 Madrid

FACTURA Nº 2024/045              Fecha de emisión: 08/03/2024
Cliente: Comunidad de Propietarios Calle Luna 7, Madrid – NIF H87654321

Concepto                          Cantidad   Precio   Importe
Pintura de escalera               1          850,00   850,00
Sustitución de luminarias         6           42,00   252,00

Base imponible                                       1.102,00
IVA 21%                                                231,42
TOTAL FACTURA                                        1.333,42

Forma de pago: transferencia a ES91 2100 0418 4502 0005 1332 antes del 07/04/2024.`,
  },
  {
    language: 'es',
    category: 'receipt',
    text: `MERCADONA S.A.
AVDA. DE LA PAZ 14 - SEVILLA
NIF A46103834

FACTURA SIMPLIFICADA 2231-017-448812
1 PAN DE MOLDE              1,35
2 LECHE ENTERA              1,90
1 ACEITE OLIVA 1L           8,95
1 TOMATE TRITURADO          0,89
TOTAL (€)                  13,09
TARJETA BANCARIA           13,09

IVA  BASE IMPONIBLE  CUOTA
10%      11,90        1,19
09/03/2024 19:05  OP: 114
GRACIAS POR SU COMPRA`,
  },
  {
    language: 'es',
    category: 'bank_statement',
    text: `CaixaBank – Extracto de movimientos
Titular: Lucía Fernández Ruiz
Cuenta: ES76 2100 0813 6101 2345 6789
Periodo: del 01/01/2024 al 31/01/2024

Fecha     Concepto                         Importe     Saldo
          Saldo anterior                               1.908,44
02/01     Recibo Iberdrola                  -64,20     1.844,24
05/01     Nómina Empresa Sol S.A.        2.150,00      3.994,24
15/01     Compra tarjeta El Corte Inglés   -120,35     3.873,89
22/01     Reintegro cajero                 -100,00     3.773,89
31/01     Comisión mantenimiento             -6,00     3.767,89
          Saldo final                                  3.767,89`,
  },
  {
    language: 'es',
    category: 'contract',
    text: `CONTRATO DE ARRENDAMIENTO DE VIVIENDA

En Valencia, a 1 de febrero de 2024.

REUNIDOS
De una parte, D. Alberto Navarro, en calidad de arrendador, y de otra, Dña. Elena Ortiz,
en calidad de arrendataria, ambas partes con capacidad legal para este acto.

CLÁUSULAS
Primera. Objeto: el arrendador cede el uso de la vivienda sita en Calle Colón 9, 3º.
Segunda. Duración: un año, prorrogable anualmente hasta cinco años.
Tercera. Renta: 900 euros mensuales, pagaderos dentro de los cinco primeros días de cada mes.
Cuarta. Fianza: una mensualidad.
Quinta. Resolución: el incumplimiento de las obligaciones permitirá resolver el contrato.
Sexta. Las partes se someten a los juzgados y tribunales de Valencia.

Firma del arrendador                      Firma de la arrendataria`,
  },
  {
    language: 'es',
    category: 'resume',
    text: `Javier Morales Pérez
javier.morales@correo.es | +34 612 345 678 | Barcelona

Perfil profesional
Contable con diez años de experiencia en auditoría y cierre fiscal.

Experiencia laboral
2018 – actualidad   Responsable de contabilidad, Grupo Costa, Barcelona
2014 – 2018         Auditor junior, KPMG, Madrid

Formación académica
2014  Grado en Administración y Dirección de Empresas, Universidad de Barcelona

Idiomas: español, catalán, inglés (C1)
Conocimientos: SAP, Excel avanzado, normativa NIIF`,
  },
  // Italian
  {
    language: 'it',
    category: 'invoice',
    text: `Tipografia Rossi S.r.l. – Via Garibaldi 18, 10122 Torino
P.IVA 01234567890

FATTURA N. 112/2024 del 15/03/2024
Spett.le Studio Legale Bianchi, Corso Vittorio 4, Torino – P.IVA 09876543210

Descrizione                         Q.tà   Prezzo unit.   Importo
Biglietti da visita                 500        0,12        60,00
Carta intestata                     1000       0,09        90,00

Imponibile                                               150,00
IVA 22%                                                   33,00
Totale documento                                         183,00

Modalità di pagamento: bonifico bancario a 30 giorni data fattura,
IBAN IT60 X054 2811 1010 0000 0123 456.`,
  },
  {
    language: 'it',
    category: 'receipt',
    text: `COOP ALLEANZA 3.0
VIA EMILIA 221 BOLOGNA

DOCUMENTO COMMERCIALE
di vendita o prestazione
PARMIGIANO REGGIANO       7,40
PASTA INTEGRALE           1,29
POMODORI PELATI           0,99
TOTALE COMPLESSIVO        9,68
di cui IVA                0,52
PAGAMENTO CONTANTE       10,00
RESTO                     0,32

16-03-2024 11:47  DOC.N. 0312-0044
GRAZIE E ARRIVEDERCI`,
  },
  {
    language: 'it',
    category: 'bank_statement',
    text: `Intesa Sanpaolo
Estratto conto corrente n. 1000/12345 – dal 01/03/2024 al 31/03/2024
Intestatario: Giulia Ferri – IBAN IT40 S030 6909 6061 0000 0123 456

Data      Descrizione operazione              Dare       Avere
          Saldo iniziale                                  2.104,55
01/03     Addebito SDD Enel Energia           71,80
06/03     Bonifico stipendio Alfa S.p.A.                  1.980,00
12/03     Pagamento POS Esselunga             46,90
19/03     Prelievo bancomat                  150,00
31/03     Canone mensile conto                  5,00
          Saldo finale                                    3.810,85`,
  },
  {
    language: 'it',
    category: 'tax_form',
    text: `Agenzia delle Entrate – Modello 730/2024 redditi 2023
Codice fiscale del contribuente: RSSMRA80A01H501U

QUADRO C – Redditi di lavoro dipendente e assimilati
Rigo C1  colonna 3  Reddito                                  32.500
Rigo C9  Giorni di lavoro dipendente                          365
Sezione II – Ritenute IRPEF e addizionali
Rigo C11 Ritenute IRPEF                                       6.840
QUADRO E – Oneri e spese
Rigo E1  Spese sanitarie                                      1.120

Il contribuente dichiara di aver compilato il presente modello.
Firma del dichiarante _____________________`,
  },
  {
    language: 'it',
    category: 'research_paper',
    text: `Analisi della qualità dell'aria urbana mediante sensori a basso costo
Marco Conti, Sara Greco
Dipartimento di Ingegneria, Politecnico di Milano

Sommario
Presentiamo una rete di 40 sensori a basso costo e ne confrontiamo le misure con le stazioni ufficiali.

1 Introduzione
Il particolato fine è uno dei principali rischi per la salute pubblica [2].
2 Materiali e metodi
I sensori sono stati calibrati con una regressione lineare multipla.
3 Risultati
L'errore medio assoluto è sceso da 9,4 a 3,1 µg/m³ dopo la calibrazione.
4 Conclusioni
Le reti a basso costo sono utili se calibrate periodicamente.

Bibliografia
[1] Castell N. et al. (2017). Environment International, 99, 293-302.`,
  },
  // Portuguese
  {
    language: 'pt',
    category: 'invoice',
    text: `Silva & Costa, Lda. – NIF 501234567
Rua Augusta 110, 1100-053 Lisboa

FATURA FT 2024/318                   Data: 11/03/2024
Cliente: Restaurante O Marinheiro, NIF 509876543, Cascais

Descrição                         Qtd.   Preço unit.   Total
Manutenção de câmara frigorífica   1       260,00      260,00
Substituição de compressor         1       540,00      540,00

Total ilíquido                                         800,00
IVA 23%                                                184,00
Total a pagar                                          984,00

Vencimento: 10/04/2024. Pagamento por transferência para PT50 0035 0651 0000 1234 5678 9.`,
  },
  {
    language: 'pt',
    category: 'receipt',
    text: `PINGO DOCE
AV. DA REPUBLICA 45 LISBOA
NIF 500829993

FATURA SIMPLIFICADA FS 0127/08812
PAO DE FORMA              1,49
QUEIJO FLAMENGO           2,79
BANANA KG                 1,62
TOTAL                     5,90
MULTIBANCO                5,90

IVA 6%  BASE 5,57  IVA 0,33
12-03-2024 09:15  CAIXA 02
OBRIGADO PELA SUA PREFERENCIA`,
  },
  {
    language: 'pt',
    category: 'bank_statement',
    text: `Millennium bcp
Extrato de conta à ordem – período de 01/03/2024 a 31/03/2024
Titular: Rui Almeida – Conta n.º 45678912345 – IBAN PT50 0033 0000 4567 8912 3450 5

Data     Descritivo                          Débito     Crédito    Saldo
         Saldo inicial                                              1.120,40
04/03    Ordenado Empresa Tejo SA                       1.650,00    2.770,40
07/03    Compra Continente Oeiras             88,16                 2.682,24
14/03    Levantamento ATM Lisboa              60,00                 2.622,24
31/03    Comissão de manutenção de conta       5,20                 2.617,04
         Saldo final                                                2.617,04`,
  },
  {
    language: 'pt',
    category: 'medical_record',
    text: `Hospital de Santa Maria – Serviço de Urgência
Nota de alta

Utente: Ana Rodrigues, data de nascimento 22/05/1984, processo n.º 778812

Motivo de vinda: dor abdominal no quadrante inferior direito há 24 horas, náuseas.
Exame objetivo: TA 118/76 mmHg, FC 88 bpm, temperatura 37,9 °C; Blumberg positivo.
Análises: leucocitose 15 400/µL, PCR 6,2 mg/dL.
Diagnóstico: apendicite aguda. Realizada apendicectomia laparoscópica sem complicações.
Medicação: paracetamol 1 g de 8/8 h se dor; amoxicilina + ácido clavulânico 875/125 mg.
Plano: consulta de cirurgia em 10 dias.

Médico responsável: Dr. Paulo Nunes`,
  },
  {
    language: 'pt',
    category: 'contract',
    text: `CONTRATO DE PRESTAÇÃO DE SERVIÇOS

Entre: Tecnologias Atlântico, S.A., com sede no Porto, adiante designada por Primeira Outorgante,
e João Pereira, residente em Braga, adiante designado por Segundo Outorgante,
é celebrado o presente contrato, que se rege pelas cláusulas seguintes:

Cláusula 1.ª – O Segundo Outorgante presta serviços de desenvolvimento de software.
Cláusula 2.ª – O contrato tem a duração de doze meses a contar de 1 de abril de 2024.
Cláusula 3.ª – A Primeira Outorgante paga 3.000 euros mensais, mediante fatura.
Cláusula 4.ª – Qualquer das partes pode denunciar o contrato com aviso prévio de 60 dias.
Cláusula 5.ª – Para os litígios emergentes é competente o foro da comarca do Porto.

Porto, 15 de março de 2024
Assinaturas: ______________________   ______________________`,
  },
  // Polish
  {
    language: 'pl',
    category: 'invoice',
    text: `FAKTURA VAT nr FV/2024/03/027
Data wystawienia: 13.03.2024     Data sprzedaży: 13.03.2024

Sprzedawca: Usługi Elektryczne Jan Kowalski, ul. Długa 5, 00-238 Warszawa, NIP 525-000-12-34
Nabywca: Biuro Rachunkowe Nowak Sp. z o.o., ul. Polna 12, Kraków, NIP 676-111-22-33

Lp. Nazwa towaru lub usługi       Ilość  Cena netto  Wartość netto  VAT   Wartość brutto
1   Montaż instalacji oświetlenia   1     1 200,00     1 200,00     23%    1 476,00
2   Przewód YDY 3x2,5 (mb)         50         4,20       210,00     23%      258,30

Razem do zapłaty: 1 734,30 zł
Słownie: jeden tysiąc siedemset trzydzieści cztery złote 30/100
Termin płatności: 27.03.2024, przelew na rachunek 61 1090 1014 0000 0712 1981 2874`,
  },
  {
    language: 'pl',
    category: 'receipt',
    text: `BIEDRONKA "CODZIENNIE NISKIE CENY"
JERONIMO MARTINS POLSKA S.A.
UL. ŻNIWNA 5, 62-025 KOSTRZYN
NIP 779-10-11-327

PARAGON FISKALNY
CHLEB ZWYKŁY 1 x 3,99         3,99 C
MASŁO 200G 1 x 7,49           7,49 C
JABŁKA LUZ 1,2 x 3,49         4,19 C
SPRZEDAŻ OPODATKOWANA C      15,67
PTU C 5%                      0,75
SUMA PLN                     15,67
KARTA PŁATNICZA              15,67
14-03-2024 16:22  NR KASY 12`,
  },
  {
    language: 'pl',
    category: 'bank_statement',
    text: `PKO Bank Polski
Wyciąg z rachunku nr 3/2024 za okres 01.03.2024 - 31.03.2024
Posiadacz rachunku: Katarzyna Wiśniewska
Numer rachunku: PL61 1020 1026 0000 0422 7020 1111

Data operacji  Opis operacji                      Kwota       Saldo po operacji
               Saldo początkowe                               3 412,08
01.03.2024     Przelew wychodzący – czynsz       -1 800,00    1 612,08
05.03.2024     Wynagrodzenie – Firma Delta       6 250,00     7 862,08
12.03.2024     Płatność kartą – Lidl Gdańsk        -142,37    7 719,71
20.03.2024     Wypłata z bankomatu                 -300,00    7 419,71
31.03.2024     Opłata za prowadzenie rachunku        -6,00    7 413,71
               Saldo końcowe                                  7 413,71`,
  },
  {
    language: 'pl',
    category: 'resume',
    text: `Tomasz Zieliński
tel. +48 601 234 567 | tomasz.zielinski@poczta.pl | Wrocław

Doświadczenie zawodowe
2020 – obecnie   Kierownik projektów IT, Comarch S.A., Kraków
2016 – 2020      Analityk systemów, Asseco Poland, Rzeszów

Wykształcenie
2011 – 2016      Politechnika Wrocławska, informatyka, tytuł magistra inżyniera

Umiejętności
Zarządzanie projektami (PRINCE2, Scrum), SQL, Jira
Języki obce: angielski C1, niemiecki B1

Wyrażam zgodę na przetwarzanie moich danych osobowych w celu rekrutacji.`,
  },
  {
    language: 'pl',
    category: 'research_paper',
    text: `Wpływ temperatury na wydajność ogniw fotowoltaicznych w warunkach klimatu umiarkowanego
Anna Lewandowska¹, Piotr Kamiński²
¹ Wydział Elektryczny, Politechnika Warszawska  ² Instytut Energetyki, Warszawa

Streszczenie
W pracy przedstawiono wyniki pomiarów sprawności modułów PV w latach 2021–2023.

1. Wstęp
Wzrost temperatury modułu obniża jego sprawność [1].
2. Metodyka badań
Pomiary prowadzono co 10 minut na stanowisku badawczym w Warszawie.
3. Wyniki i dyskusja
Sprawność spadała średnio o 0,41 % na każdy stopień powyżej 25 °C.
4. Wnioski
Chłodzenie pasywne może zwiększyć roczny uzysk energii o 3 %.

Literatura
[1] Skoplaki E., Palyvos J. A. (2009). Solar Energy, 83(5), 614–624.`,
  },
  // English
  {
    language: 'en',
    category: 'receipt',
    text: `TESCO EXPRESS
221 HIGH STREET, OXFORD

SEMI SKIMMED MILK 2PT     1.45
WHOLEMEAL BREAD           1.10
BANANAS LOOSE             0.68
BALANCE DUE               3.23
VISA CONTACTLESS          3.23
CHANGE DUE                0.00
12/03/24 08:14 ST 2217 OP 4 TE 3
THANK YOU FOR SHOPPING WITH US`,
  },
  {
    language: 'en',
    category: 'medical_record',
    text: `58 y/o male seen today for follow-up of type 2 diabetes. Reports polyuria and fatigue for 3 weeks.
BP 142/88, HR 78, BMI 31. HbA1c 8.9% (was 7.4% in June). Foot exam normal.
Started metformin 1000 mg BID, continue lisinopril 10 mg daily. Referred to dietitian.
Recheck labs in 3 months.  — Dr. R. Patel, MD`,
  },
  {
    language: 'en',
    category: 'resume',
    text: `CURRICULUM VITAE
Dr. Emily Carter
Department of Chemistry, University of Leeds · e.carter@leeds.ac.uk · +44 113 000 0000

Academic Appointments
2019–present  Associate Professor, University of Leeds
2015–2019     Lecturer, University of Sheffield
Education
2014  PhD Chemistry, University of Cambridge
2010  MChem, University of Oxford
Selected Publications
Carter E., Hall J. (2022). Catalytic reduction of CO2. Nature Chemistry 14, 221–229.
Carter E. et al. (2020). Journal of the American Chemical Society 142, 5120–5131.
Grants and Awards
2021  ERC Starting Grant; 2018 RSC Harrison-Meldola Memorial Prize
Teaching
Organic chemistry (undergraduate), spectroscopy (postgraduate)`,
  },
  {
    language: 'en',
    category: 'tax_form',
    text: `Form W-9 (Rev. March 2024) Department of the Treasury Internal Revenue Service
Request for Taxpayer Identification Number and Certification
1 Name of entity/individual: ____________________
2 Business name/disregarded entity name, if different from above: ____________
3a Check the appropriate box for federal tax classification: [ ] Individual/sole proprietor [ ] C corporation
5 Address (number, street, and apt. or suite no.): ____________
Part I Taxpayer Identification Number (TIN): Social security number ___-__-____ or Employer identification number
Part II Certification: Under penalties of perjury, I certify that the number shown on this form is my correct taxpayer identification number.
Sign Here: Signature of U.S. person ____________ Date ________
General Instructions: Section references are to the Internal Revenue Code unless otherwise noted.`,
  },
];
