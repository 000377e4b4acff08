// The CRM demo data of the two seed users. Dates are days from the day the
// stack starts. Ben also has an "Acme Robotics", so that a read by name
// proves it sees only the caller's own.

export const CRM_DATA = [
  {
    organizations: [
      // [name, industry, website, employees, tags, address]
      ['Acme Robotics', 'manufacturing', 'https://acme-robotics.example', 420, ['enterprise', 'priority'], { city: 'Lyon', country: 'FR' }],
      ['Blue Harbor Foods', 'food', 'https://blueharbor.example', 35, ['smb'], { city: 'Porto', country: 'PT' }],
      ['Nordlicht GmbH', 'software', null, 120, ['enterprise', 'eu'], { city: 'Hamburg', country: 'DE' }],
      ['Café Ørsted & Søn', 'hospitality', null, 8, [], null],
    ],
    contacts: [
      // [first, last, email, organization, job title, channels, tags, last contacted (days)]
      ['Grace', 'Hopper', 'grace@acme-robotics.example', 'Acme Robotics', 'CTO', ['email', 'video'], ['decision-maker'], -3],
      ['Marc', 'Dubois', 'marc@acme-robotics.example', 'Acme Robotics', 'Procurement', ['phone'], [], -10],
      ['Inês', 'Costa', 'ines@blueharbor.example', 'Blue Harbor Foods', 'Owner', ['in_person', 'phone'], ['decision-maker'], -1],
      ['Lena', 'Vogel', 'lena@nordlicht.example', 'Nordlicht GmbH', 'Head of IT', ['email'], ['champion'], -20],
      ['Søren', 'Ørsted', null, 'Café Ørsted & Søn', 'Owner', [], [], null],
      ['Sam', 'Lee', 'sam.lee@example.com', null, 'Consultant', ['email'], ['partner'], -40],
    ],
    deals: [
      // [title, organization, primary contact (first name), stage, amount, probability, closes in (days)]
      ['Acme: robot arm fleet', 'Acme Robotics', 'Grace', 'negotiation', 250000, 70, 14],
      ['Acme: service contract', 'Acme Robotics', 'Marc', 'proposal', 48000, 40, 30],
      ['Blue Harbor: cold storage', 'Blue Harbor Foods', 'Inês', 'qualified', 18500.5, 30, 45],
      ['Nordlicht: pilot', 'Nordlicht GmbH', 'Lena', 'won', 12000, 100, -5],
      ['Café espresso machine', 'Café Ørsted & Søn', 'Søren', 'lead', 3200, 10, null],
    ],
    tasks: [
      // [title, deal, contact (first name), status, due in (days), notes]
      ['Send revised quote', 'Acme: robot arm fleet', 'Grace', 'open', 2, 'Include the 5% volume discount'],
      ['Schedule site visit', 'Acme: service contract', 'Marc', 'in_progress', 7, null],
      ['Call Inês about capacity', 'Blue Harbor: cold storage', 'Inês', 'open', 1, null],
      ['Kick-off call', 'Nordlicht: pilot', 'Lena', 'done', -6, 'Went well'],
      ['Find the decision-maker', 'Café espresso machine', null, 'cancelled', null, null],
      ['Quarterly pipeline review', null, null, 'open', 10, null],
    ],
    activity: ['Imported contacts from a spreadsheet', 'Won the Nordlicht pilot'],
  },
  {
    organizations: [
      ['Acme Robotics', 'manufacturing', null, 400, ['prospect'], null],
      ['Zephyr Airlines', 'travel', 'https://zephyr.example', 5000, ['enterprise'], { city: 'Dublin', country: 'IE' }],
    ],
    contacts: [
      ['Wile', 'Coyote', 'wile@acme.example', 'Acme Robotics', 'Buyer', ['phone'], [], -2],
      ['Amelia', 'Earhart', 'amelia@zephyr.example', 'Zephyr Airlines', 'COO', ['email', 'video'], ['decision-maker'], -15],
    ],
    deals: [
      ['Acme: rocket skates', 'Acme Robotics', 'Wile', 'proposal', 999, 50, 20],
      ['Zephyr: lounge upgrade', 'Zephyr Airlines', 'Amelia', 'lost', 75000, 0, -30],
    ],
    tasks: [
      ['Demo the skates', 'Acme: rocket skates', 'Wile', 'open', 3, null],
      ['Ask Amelia for feedback', 'Zephyr: lounge upgrade', 'Amelia', 'done', -25, null],
    ],
    activity: ['Lost Zephyr to a competitor'],
  },
];
