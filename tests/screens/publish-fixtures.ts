import type { PlatformName, PublicationRequestDetail, PublishProfileOption, SelectOption } from '../../src/lib/contract';

/** A finished creation request of three videos, as GET /api/create-video/request/{idUpload} answers it. */
export const idUpload = '0b7c4d3e-1111-4222-8333-444455556666';
export const profile = (id: number, name: string): SelectOption => ({ id, title: `#${id} ${name}`, value: id });
export const [anna, boris, vira] = [profile(1, 'anna'), profile(2, 'boris'), profile(3, 'vira')];
/** A profile as the form offers it, with the platforms it has switched on (YouTube, what the form ticks at first). */
export const offered = (option: SelectOption, platforms: PlatformName[] = ['youtube']): PublishProfileOption => ({ ...option, platforms });

export function requestVideo(id: number, posterUrl: string | null = null) {
  return {
    id,
    url: `/api/media/render-${id}.mp4?exp=1&sig=s${id}`,
    posterUrl,
    idUpload,
    createdAt: '2026-11-20T10:00:00.000Z',
    status: 'success' as const,
    error: null,
    errorInstagram: null,
    urlInstagram: null,
    urlYouTube: null,
    account: null,
    date: null,
  };
}

export const request: PublicationRequestDetail = {
  id: 4,
  idUpload,
  status: 'success',
  countVideo: 3,
  createdAt: '2026-11-20T10:00:00.000Z',
  error: null,
  video: [requestVideo(11, '/api/media/poster-11.jpg?exp=1&sig=p'), requestVideo(12), requestVideo(13)],
  accounts: [offered(anna), offered(boris), offered(vira)],
  tagProfile: [{ id: 5, name: 'Музика', tags: ['music', 'beats'] }],
  group: [{ id: 9, name: 'Ранкові', accounts: [boris, vira] }],
};

/** A video's place in the request (1, 2, …), which the publish form names it by: ids 11–13 are videos 1–3. */
export const numberOf = (id: number) => request.video.findIndex((video) => video.id === id) + 1;
