import { IsString, Length } from 'class-validator';

export class SignInDto {
  /** The account API key (`dpa_…`) to exchange for a session; never stored or echoed. */
  @IsString()
  @Length(1, 200)
  key!: string;
}
